import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/**
 * The code and the documents cite the project's own documents (docs/api.md, docs/architecture.md,
 * SECURITY.md, README.md), never a document a reader of the repository does not have.
 */
describe('references in the repository', () => {
  const files = execFileSync('git', ['ls-files', 'src', 'docs', 'deploy', 'scripts', '*.md'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => /\.(ts|md|njk|css|ya?ml|sql|sh)$/.test(f) && !f.includes('/fonts/'));

  it('never cite the team-internal contract', () => {
    expect(files.length).toBeGreaterThan(100);
    const citing = files.filter((f) =>
      /CONTRACT(\.md)?\s*§/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(citing).toEqual([]);
  });
});
