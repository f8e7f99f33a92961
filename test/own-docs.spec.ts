import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/** The files under `paths` (folders, or files of the root) that hold prose or comments. */
function tracked(...paths: string[]): string[] {
  const walk = (path: string): string[] =>
    statSync(join(ROOT, path)).isDirectory()
      ? readdirSync(join(ROOT, path)).flatMap((name) => walk(`${path}/${name}`))
      : [path];
  const roots = paths.flatMap((p) =>
    p === '*.md' ? readdirSync(ROOT).filter((f) => f.endsWith('.md')) : [p],
  );
  return roots
    .flatMap(walk)
    .filter((f) => /\.(ts|md|njk|css|ya?ml|sql|sh)$/.test(f) && !f.includes('/fonts/'));
}

/**
 * What a reader of the repository cannot follow: the team's contract and service spec, a bare
 * section sign (`§15` of a document not named; a law's, `HIPAA §164.312`, is public), and an
 * issue number. Code and scripts cite the project's own documents instead (docs/api.md,
 * Webhooks).
 */
const OUTSIDE = [/\bSERVICE-SPEC\b/, /\bCONTRACT\b/, /(?<!\b(?:HIPAA|CFR) )§/, /\bissues? #?\d+/i];

/** `file:line: text` for each line of `text` citing what the repository does not hold. */
function outsideReferences(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      OUTSIDE.some((p) => p.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
    );
}

/**
 * The code and the documents cite the project's own documents (docs/api.md, docs/architecture.md,
 * SECURITY.md, README.md), never a document a reader of the repository does not have.
 */
describe('references in the repository', () => {
  it('never cite the team-internal contract', () => {
    const files = tracked('src', 'docs', 'deploy', 'scripts', '*.md');
    expect(files.length).toBeGreaterThan(100);
    const citing = files.filter((f) =>
      /CONTRACT(\.md)?\s*§/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(citing).toEqual([]);
  });

  it('in the code and the scripts, cite docs/ pages only: no spec, section number or issue', () => {
    const files = tracked('src', 'scripts').filter((f) => !f.endsWith('.md'));
    expect(files.length).toBeGreaterThan(500);
    expect(files.flatMap((f) => outsideReferences(f, readFileSync(join(ROOT, f), 'utf8')))).toEqual(
      [],
    );
  });

  it('tells an outside reference from a citation of the docs', () => {
    const text = [
      '// the body of SERVICE-SPEC "Eligibility result"',
      '// CONTRACT §3: the error envelope',
      '/** required (§15) */',
      '// the upload was buffered (issue 27)',
      '// Issue #40: a polled 835',
      '// docs/api.md, Claims: a rendering provider',
      '// HIPAA §164.312: audit controls',
      '// contractor, tissue 30, isSueNumber',
    ].join('\n');
    expect(outsideReferences('x.ts', text).map((l) => l.split(':')[1])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
  });
});
