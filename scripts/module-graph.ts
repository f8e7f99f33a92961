/**
 * Prints the module graph of src/: which area imports which (src/modules/<name>, the platform's
 * parts src/platform/<part>, the libraries src/lib/<name>, cli, and the root files), how many files make each edge (real imports, and imports
 * of types only), and every two-way pair with the files on each side, so a cycle can be found
 * and cut. `npm run --silent graph` (add `--json` for the raw edges; `--check` fails on a module
 * cycle, on shared code importing a feature or on a door export nothing outside its module
 * imports, and runs in `npm run lint`). Spec files are left out of the graph.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const SRC = join(ROOT, 'src');

interface Edge {
  from: string;
  to: string;
  /** Files of `from` with a real (value) import of `to`, and with type-only imports. */
  real: Set<string>;
  types: Set<string>;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : files(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The area a file of src/ belongs to. */
export function areaOf(path: string): string {
  const parts = relative(SRC, path).split(/[\\/]/);
  if (parts[0] === 'modules' || parts[0] === 'platform') return parts[1];
  if (parts[0] === 'lib') return parts.length > 2 ? parts[1] : 'lib';
  if (parts.length === 1) return parts[0].startsWith('cli') ? 'cli' : '(root)';
  return parts[0];
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'([^']+)'/gm;
const DYNAMIC = /import\(\s*'([^']+)'\s*\)/g;

/** Where an import specifier points inside src/, or null (a package). */
function target(from: string, spec: string): string | null {
  if (spec.startsWith('@/')) return join(SRC, spec.slice(2));
  if (spec.startsWith('.')) return resolve(dirname(from), spec);
  return null;
}

/** Only `import type` / `export type`, or braces whose every name is marked `type`. */
function typeOnly(keyword: string | undefined, clause: string): boolean {
  if (keyword) return true;
  const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
  if (!braces) return false;
  const names = braces[1]
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

export function moduleGraph(): Map<string, Edge> {
  const edges = new Map<string, Edge>();
  for (const file of files(SRC)) {
    const text = readFileSync(file, 'utf8');
    const from = areaOf(file);
    const add = (spec: string, isType: boolean) => {
      const path = target(file, spec);
      if (!path) return;
      const to = areaOf(path);
      if (to === from) return;
      const key = `${from} -> ${to}`;
      const edge = edges.get(key) ?? { from, to, real: new Set(), types: new Set() };
      (isType ? edge.types : edge.real).add(relative(ROOT, file));
      edges.set(key, edge);
    };
    for (const m of text.matchAll(IMPORT)) add(m[4], typeOnly(m[2], m[3]));
    for (const m of text.matchAll(DYNAMIC)) add(m[1], false);
  }
  return edges;
}

/**
 * The module cycles: every strongly connected group of two or more areas (Tarjan), over real
 * and type-only imports alike, each listed by its areas in order.
 */
export function moduleCycles(edges = moduleGraph()): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges.values()) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return groups;
}

/**
 * The areas every feature builds on, which import no feature module: the platform's parts
 * (src/platform/<part>) and the libraries (src/lib/<name>, and src/lib's own files as `lib`).
 */
export const SHARED_AREAS = new Set([
  ...['platform', 'lib'].flatMap((dir) =>
    readdirSync(join(SRC, dir), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name),
  ),
  'lib',
]);

/** A door's exported names (`export { a, type B } from …`, `export type { C } from …`). */
export function doorExports(text: string): string[] {
  return [...text.matchAll(/^export (?:type )?\{([^}]*)\} from '[^']+';$/gm)].flatMap((m) =>
    m[1]
      .split(',')
      .map((n) =>
        n
          .trim()
          .replace(/^type /, '')
          .split(/\s+as\s+/)
          .pop()!,
      )
      .filter(Boolean),
  );
}

/** The names `text` imports (or re-exports) from `specifier`. */
export function namesImported(text: string, specifier: string): string[] {
  const from = specifier.replace(/[/-]/g, (c) => `\\${c}`);
  const clause = new RegExp(`^(?:import|export)(?: type)? \\{([^}]*)\\} from '${from}';$`, 'gm');
  return [...text.matchAll(clause)].flatMap((m) =>
    m[1]
      .split(',')
      .map(
        (n) =>
          n
            .trim()
            .replace(/^type /, '')
            .split(/\s+as\s+/)[0],
      )
      .filter(Boolean),
  );
}

/**
 * Door exports nothing outside their module imports (the rest of src/, test/, bench/, scripts/):
 * a door lists what the module promises others, so an export nobody takes is deleted.
 */
export function unusedDoorExports(): string[] {
  const everywhere = ['src', 'test', 'bench', 'scripts'].flatMap((d) =>
    allTs(join(ROOT, d)).map((f) => ({ file: f, text: readFileSync(f, 'utf8') })),
  );
  return readdirSync(join(SRC, 'modules')).flatMap((name) => {
    const dir = join(SRC, 'modules', name);
    const outside = everywhere.filter((f) => !f.file.startsWith(`${dir}/`));
    const used = new Set(outside.flatMap((f) => namesImported(f.text, `@/modules/${name}`)));
    return doorExports(readFileSync(join(dir, 'index.ts'), 'utf8'))
      .filter((n) => !used.has(n))
      .map((n) => `src/modules/${name}/index.ts exports ${n}, which nothing outside imports`);
  });
}

/** Every .ts file under `dir`, specs included (they use doors too). */
function allTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (d.name === 'node_modules') return [];
    const path = join(dir, d.name);
    return d.isDirectory() ? allTs(path) : d.name.endsWith('.ts') ? [path] : [];
  });
}

/** What `--check` refuses: module cycles, and shared code importing a feature module. */
export function graphProblems(edges = moduleGraph()): string[] {
  const cycles = moduleCycles(edges).map((c) => `module cycle: ${c.join(', ')}`);
  const shared = [...edges.values()]
    .filter((e) => SHARED_AREAS.has(e.from) && !SHARED_AREAS.has(e.to))
    .map((e) => `${e.from} imports the feature ${e.to}: ${[...e.real, ...e.types].join(', ')}`);
  return [...cycles, ...shared];
}

function main(): void {
  const edges = moduleGraph();
  if (process.argv.includes('--check')) {
    const problems = [...graphProblems(edges), ...unusedDoorExports()];
    for (const p of problems) process.stderr.write(`${p}\n`);
    if (problems.length > 0) process.exit(1);
    return;
  }
  const list = [...edges.values()].sort((a, b) =>
    a.from === b.from ? a.to.localeCompare(b.to) : a.from.localeCompare(b.from),
  );
  if (process.argv.includes('--json')) {
    const json = list.map((e) => ({
      from: e.from,
      to: e.to,
      real: [...e.real],
      types: [...e.types],
    }));
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  const areas = [...new Set(list.flatMap((e) => [e.from, e.to]))].sort();
  process.stdout.write(`Module graph of src/ (${areas.length} areas, ${list.length} edges)\n\n`);
  for (const area of areas) {
    const out = list.filter((e) => e.from === area);
    if (out.length === 0) continue;
    const deps = out.map(
      (e) => `${e.to} (${e.real.size}${e.types.size ? ` + ${e.types.size} types` : ''})`,
    );
    process.stdout.write(`${area} -> ${deps.join(', ')}\n`);
  }
  const cycles = moduleCycles(edges);
  process.stdout.write(`\nCycles: ${cycles.length}\n`);
  for (const c of cycles) process.stdout.write(`  ${c.join(', ')}\n`);
  const pairs = list.filter((e) => e.from < e.to && edges.has(`${e.to} -> ${e.from}`));
  process.stdout.write(`\nTwo-way pairs: ${pairs.length}\n`);
  for (const e of pairs) {
    const back = edges.get(`${e.to} -> ${e.from}`)!;
    const side = (x: Edge) =>
      [...x.real, ...[...x.types].map((f) => `${f} (types)`)].map((f) => `    ${f}`).join('\n');
    process.stdout.write(`  ${e.from} <-> ${e.to}\n  ${e.from} -> ${e.to}:\n${side(e)}\n`);
    process.stdout.write(`  ${e.to} -> ${e.from}:\n${side(back)}\n`);
  }
}

if (require.main === module) main();
