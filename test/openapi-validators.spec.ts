import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http/dist/utils/operations';
import { validateAgainstSchema } from '@stoplight/prism-http/dist/validator/validators/utils';
import { ValidationContext } from '@stoplight/prism-http/dist/validator/validators/types';
import * as O from 'fp-ts/Option';
import { OpenApiChecker, type OpenApiDocument } from './support/openapi';

/**
 * Every response schema of the checked-in document compiles in the validators its readers use:
 * Prism (which turns OpenAPI 3.0 into JSON Schema its own way, and silently skips a schema ajv
 * refuses to compile) and a strict ajv with OpenAPI 3.0's `nullable` (test/support/openapi.ts).
 * A schema that compiles refuses a bare number: no JSON answer of the API is one.
 */

type Json = Record<string, any>;

const DOCUMENT = JSON.parse(
  readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8'),
) as OpenApiDocument;

const isJson = (mediaType: string) => /^application\/(.+\+)?json$/.test(mediaType);

/** The JSON response bodies Prism does not check: their schemas did not compile in it. */
async function uncheckedByPrism(document: object): Promise<string[]> {
  const operations = await getHttpOperationsFromSpec(structuredClone(document));
  const unchecked: string[] = [];
  let checked = 0;
  for (const op of operations) {
    for (const response of op.responses) {
      for (const content of response.contents ?? []) {
        if (!isJson(content.mediaType) || !content.schema) continue;
        const bundle = (op as unknown as Json).__bundled__;
        const errors = validateAgainstSchema(
          42,
          content.schema,
          false,
          ValidationContext.Output,
          'body',
          bundle,
        );
        if (O.isNone(errors)) unchecked.push(`${op.method} ${op.path} ${response.code}`);
        else checked += 1;
      }
    }
  }
  if (checked === 0 && unchecked.length === 0) throw new Error('no JSON response schema found');
  return unchecked;
}

describe('the response schemas of openapi.json compile in every validator', () => {
  it('in Prism: every JSON answer of every operation is checked', async () => {
    expect(await uncheckedByPrism(DOCUMENT)).toEqual([]);
  });

  it('and the Prism probe sees a schema Prism skips (null inside a nullable enum)', async () => {
    const nullableEnum = { type: 'string', nullable: true, enum: ['a', null] };
    const document = {
      openapi: '3.0.0',
      info: { title: 'probe', version: '1' },
      paths: {
        '/x': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: { type: 'object', properties: { state: nullableEnum } },
                  },
                },
              },
            },
          },
        },
      },
    };
    expect(await uncheckedByPrism(document)).toEqual(['get /x 200']);
  });

  it('in a strict ajv with OpenAPI 3.0 nullable: compiles, refuses a number, takes null where nullable', () => {
    const checker = new OpenApiChecker(DOCUMENT);
    let count = 0;
    for (const item of Object.values(DOCUMENT.paths)) {
      for (const operation of Object.values(item)) {
        for (const response of Object.values((operation.responses ?? {}) as Json)) {
          for (const [type, media] of Object.entries((response.content ?? {}) as Json)) {
            if (!isJson(type)) continue;
            expect(checker.validateValue(media.schema, 42)).not.toBe(true);
            count += 1;
          }
        }
      }
    }
    expect(count).toBeGreaterThan(100);
    // A nullable enum of the document (EligibilityResultV2.error_code) takes null and its values only.
    const errorCode = DOCUMENT.components.schemas.EligibilityResultV2.properties as Json;
    expect(checker.validateValue(errorCode.error_code, null)).toBe(true);
    expect(checker.validateValue(errorCode.error_code, 'insurer_problem')).toBe(true);
    expect(checker.validateValue(errorCode.error_code, 'nope')).not.toBe(true);
  });
});
