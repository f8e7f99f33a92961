import { takeViolations } from './openapi-responses';

/**
 * Registered for every e2e file (jest.config.js): a test whose requests got an answer that
 * disagrees with the OpenAPI document fails, naming each disagreement.
 */
function failOnViolations(): void {
  const found = takeViolations();
  if (found.length === 0) return;
  const unique = [...new Set(found)];
  throw new Error(
    `${unique.length} answer(s) disagree with the OpenAPI document (/docs-json):\n` +
      unique.slice(0, 30).join('\n'),
  );
}

afterEach(failOnViolations);
afterAll(failOnViolations);
