import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/**
 * Every relative link of the project's Markdown resolves on GitHub: the file exists beside the
 * linking file, and a `#anchor` names a heading of the target as GitHub's slugs do (lowercased,
 * punctuation but `-` and `_` dropped, each space a `-`, repeats suffixed `-1`, `-2`...).
 * External links are not fetched. Reads files only.
 */

const ROOT = join(__dirname, '..');

/** Where links are found, and where a link's target is read from (paths from the root, `/`). */
type Docs = { exists(path: string): boolean; read(path: string): string };

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const CODE_SPAN = /(`+)(?:(?!\1|\n[ \t]*\n)[\s\S])*?\1/g;
const INLINE = /\]\(\s*<?([^()\s<>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const REFERENCE = /^ {0,3}\[[^\]]+\]:[ \t]*<?([^\s<>]+)>?/gm;
const EXTERNAL = /^(https?|mailto):/i;

/** The document with fenced code blocks blanked (line numbers kept), and its headings' text. */
function split(text: string): { prose: string; headings: string[] } {
  const prose: string[] = [];
  const headings: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (!fence && !marker) {
      const heading = HEADING.exec(line);
      if (heading) headings.push(heading[1] ?? '');
    } else if (!fence) fence = marker;
    else if (marker?.[0] === fence[0] && marker.length >= fence.length) fence = undefined;
    prose.push(fence || marker ? '' : line);
  }
  return { prose: prose.join('\n'), headings };
}

/** A heading's rendered text, as GitHub takes it: link text kept, code and emphasis marks gone. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a document; a repeated heading gets `-1`, `-2`... as on GitHub. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  return new Set(
    split(text).headings.map((heading) => {
      const id = slug(heading);
      const n = seen.get(id) ?? 0;
      seen.set(id, n + 1);
      return n ? `${id}-${n}` : id;
    }),
  );
}

/** Inline links and images, and reference definitions, outside code. */
function links(text: string): { target: string; line: number }[] {
  const prose = split(text).prose.replace(CODE_SPAN, (code) => code.replace(/[^\n]/g, ' '));
  const lineOf = (index: number) => prose.slice(0, index).split('\n').length;
  return [...prose.matchAll(INLINE), ...prose.matchAll(REFERENCE)]
    .map((m) => ({ target: m[1], line: lineOf(m.index + m[0].indexOf(m[1])) }))
    .sort((a, b) => a.line - b.line);
}

/** One line per link of `file` that does not resolve: `file:line: target (why)`. */
function brokenLinks(file: string, docs: Docs): string[] {
  const broken: string[] = [];
  for (const { target, line } of links(docs.read(file))) {
    if (EXTERNAL.test(target)) continue;
    const [path, anchor] = target.split('#', 2).map(decodeURIComponent);
    // A leading `/` is the repository's root on GitHub; an empty path is the file itself.
    const from = path.startsWith('/') ? '.' : posix.dirname(file);
    const resolved = posix.join(from, path || posix.basename(file));
    if (resolved.startsWith('..') || !docs.exists(resolved)) {
      broken.push(`${file}:${line}: ${target} (no file ${resolved})`);
    } else if (anchor && resolved.endsWith('.md') && !anchors(docs.read(resolved)).has(anchor)) {
      broken.push(`${file}:${line}: ${target} (no heading #${anchor} in ${resolved})`);
    }
  }
  return broken;
}

const DOCUMENTS = [
  ...['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'SECURITY.md', 'RELIABILITY.md'],
  ...['deploy/README.md', 'bench/README.md'],
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...readdirSync(join(ROOT, 'clients'))
    .map((c) => `clients/${c}/README.md`)
    .filter((f) => existsSync(join(ROOT, f))),
];

const TREE: Docs = {
  exists: (path) => existsSync(join(ROOT, path)),
  read: (path) => readFileSync(join(ROOT, path), 'utf8'),
};

describe('links of the Markdown documents', () => {
  it('resolve to a file, and an anchor to a heading of it', () => {
    expect(DOCUMENTS.length).toBeGreaterThanOrEqual(15);
    const checked = DOCUMENTS.flatMap((f) => links(TREE.read(f)));
    expect(checked.filter((l) => !EXTERNAL.test(l.target)).length).toBeGreaterThan(200);
    expect(DOCUMENTS.flatMap((file) => brokenLinks(file, TREE))).toEqual([]);
  });

  it('README.md stays short and links to the pages its sections moved to', () => {
    const readme = TREE.read('README.md');
    const targets = links(readme).map((l) => l.target.split('#')[0]);
    for (const page of ['configuration', 'x12-and-claims', 'observability', 'deployment']) {
      expect(targets).toContain(`docs/${page}.md`);
    }
    expect(readme.replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(220);
  });

  it('docs/architecture.md keeps to the why: at most 400 lines, its listings generated', () => {
    const architecture = TREE.read('docs/architecture.md');
    expect(architecture.replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(400);
    expect(architecture).toContain('<!-- generated: queues, by scripts/generated-docs.ts -->');
  });
});

describe('the link checker', () => {
  const guide = '# Setup\n\n## Setup\n\n## `npm start`, then (what?)\n\n[up](#setup-1)\n';
  const a = `# A
See [setup](../guide.md#setup) and [start](../guide.md#npm-start-then-what).
[gone](../guide.md#setup-2) and [missing](b.md)
\`\`\`
[in code](nowhere.md)
\`\`\`
\`[inline](nowhere.md)\` [external](https://example.com/x.md) [self](#a) [bad](#b)`;
  const files = new Map(Object.entries({ 'guide.md': guide, 'docs/a.md': a }));
  const docs: Docs = { exists: (p) => files.has(p), read: (p) => files.get(p)! };

  it('reports each broken file and anchor with its file and line, and nothing else', () => {
    expect([...anchors(guide)]).toEqual(['setup', 'setup-1', 'npm-start-then-what']);
    expect(brokenLinks('guide.md', docs)).toEqual([]);
    expect(brokenLinks('docs/a.md', docs)).toEqual([
      'docs/a.md:3: ../guide.md#setup-2 (no heading #setup-2 in guide.md)',
      'docs/a.md:3: b.md (no file docs/b.md)',
      'docs/a.md:7: #b (no heading #b in docs/a.md)',
    ]);
  });
});
