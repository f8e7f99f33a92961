import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/** The files under `dir`, as paths from the root, without the ones .gitignore leaves out. */
function checkedIn(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (!entry.isDirectory()) return [path];
    return entry.name === 'node_modules' || entry.name.startsWith('.') || IGNORED.has(path)
      ? []
      : checkedIn(path);
  });
}
const IGNORED = new Set(['dist', 'dist.building', 'coverage', 'var', 'test/artifacts']);
const CODE = /^(src|docs|deploy|scripts)\/.*\.(ts|md|njk|css|ya?ml|sql|sh)$/;

/**
 * The code and the documents cite the project's own documents (docs/api.md, docs/architecture.md,
 * SECURITY.md, README.md), never a document a reader of the repository does not have.
 */
describe('references in the repository', () => {
  const files = checkedIn('').filter(
    (f) => (CODE.test(f) || f.endsWith('.md')) && !f.includes('/fonts/'),
  );

  it('never cite the team-internal contract', () => {
    expect(files.length).toBeGreaterThan(100);
    const citing = files.filter((f) =>
      /CONTRACT(\.md)?\s*§/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(citing).toEqual([]);
  });
});
