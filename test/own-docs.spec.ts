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

/** A page's headings as its readers see them (code marks dropped), and its table's variables. */
function headings(page: string): string[] {
  let fence = false;
  const found: string[] = [];
  for (const line of readFileSync(join(ROOT, page), 'utf8').split('\n')) {
    if (/^ {0,3}(```|~~~)/.test(line)) fence = !fence;
    else if (!fence && /^#{1,6} /.test(line))
      found.push(line.replace(/^#+ /, '').replace(/`/g, ''));
    else if (!fence && /^\| `[A-Z][A-Z0-9_]+`/.test(line))
      found.push(...[...line.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
  }
  return found;
}

/**
 * The citations `page, Section` in the comments of a source file: `docs/api.md, Webhooks`,
 * `SECURITY.md, Keys` (a page of docs/ may be named without its folder, as pages name each other).
 */
function citationsIn(file: string, text: string): { file: string; page: string; cited: string }[] {
  const comments = [...text.matchAll(/\/\*[\s\S]*?\*\/|\/\/.*$/gm)]
    .map((m) => m[0])
    .join('\n')
    .replace(/\n\s*(\*|\/\/)\s*/g, ' ');
  return [...comments.matchAll(/\b((?:[\w-]+\/)?[\w-]+\.md), "?([A-Z][^;:()\n"*]*)/g)].map((m) => ({
    file,
    page: m[1].includes('/') || !/^[a-z]/.test(m[1]) ? m[1] : `docs/${m[1]}`,
    cited: m[2].replace(/`/g, ''),
  }));
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

  it("cite a page's section by a heading it has (docs/configuration.md also by a variable)", () => {
    const pages = ['README.md', 'SECURITY.md', 'RELIABILITY.md', 'CONTRIBUTING.md']
      .concat(tracked('docs').filter((f) => f.endsWith('.md')))
      .concat(['deploy/README.md', 'bench/README.md']);
    const sections = new Map(pages.map((page) => [page, headings(page)]));
    const citations = tracked('src')
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => citationsIn(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(citations.length).toBeGreaterThan(500);
    const unknown = citations.filter(({ page, cited }) => {
      const known = sections.get(page);
      return known !== undefined && !known.some((h) => cited.startsWith(h));
    });
    expect(unknown.map((c) => `${c.file}: ${c.page}, ${c.cited}`)).toEqual([]);
  });

  it('tells an outside reference from a citation of the docs, and reads a citation across lines', () => {
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
    const cited = citationsIn(
      'x.ts',
      '// docs/api.md, Webhooks: a body\n/** see SECURITY.md,\n * Keys */',
    );
    expect(cited.map((c) => `${c.page}, ${c.cited.trim()}`)).toEqual([
      'docs/api.md, Webhooks',
      'SECURITY.md, Keys',
    ]);
    expect(outsideReferences('x.ts', text).map((l) => l.split(':')[1])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
  });
});
