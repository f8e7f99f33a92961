import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { graphProblems, moduleCycles, moduleGraph, SHARED_AREAS } from '../scripts/module-graph';

type Edges = ReturnType<typeof moduleGraph>;

/** A made-up graph: each "a -> b" becomes one edge made by one file. */
function graphOf(...arrows: string[]): Edges {
  const edges: Edges = new Map();
  for (const arrow of arrows) {
    const [from, to] = arrow.split(' -> ');
    edges.set(arrow, { from, to, real: new Set([`src/${from}/x.ts`]), types: new Set() });
  }
  return edges;
}

/**
 * The module graph (npm run graph) has no cycle, and shared code imports no feature; `npm run
 * lint` runs the same check (`graph --check`). docs/architecture.md, "Module graph".
 */
describe('the module graph of src/', () => {
  it('has no cycle of areas, long or short', () => {
    expect(moduleCycles()).toEqual([]);
    expect(graphProblems()).toEqual([]);
  });

  it('keeps the platform and the libraries free of feature modules', () => {
    const shared = new Set([...SHARED_AREAS]);
    expect([...shared].sort()).toEqual([
      'benefits',
      'config',
      'db',
      'http',
      'jobs',
      'kernel',
      'lib',
      'metrics',
      'pdf',
      'person',
      'tracing',
      'x12',
    ]);
    const features = [...moduleGraph().values()].filter(
      (e) => shared.has(e.from) && !shared.has(e.to),
    );
    expect(
      features.map((e) => `${e.from} -> ${e.to}: ${[...e.real, ...e.types].join(', ')}`),
    ).toEqual([]);
  });

  it('finds a cycle of three and a two-way pair, and refuses shared code importing a feature', () => {
    const edges = graphOf(
      'eligibility -> verification',
      'verification -> estimates',
      'estimates -> eligibility',
      'claims -> webhooks',
      'webhooks -> claims',
      'claims -> kernel',
      'kernel -> patients',
    );
    expect(moduleCycles(edges)).toEqual([
      ['claims', 'webhooks'],
      ['eligibility', 'estimates', 'verification'],
    ]);
    expect(graphProblems(edges)).toEqual([
      'module cycle: claims, webhooks',
      'module cycle: eligibility, estimates, verification',
      'kernel imports the feature patients: src/kernel/x.ts',
    ]);
    expect(moduleCycles(graphOf('a -> b', 'b -> c', 'a -> c'))).toEqual([]);
  });

  it("lets a module's door name its entities as types only (rows are its repository's)", () => {
    const modules = join(__dirname, '..', 'src', 'modules');
    const valueExports = readdirSync(modules).flatMap((name) => {
      const door = readFileSync(join(modules, name, 'index.ts'), 'utf8');
      return [...door.matchAll(/^export \{[^}]*\} from '([^']+\.entity)';$/gm)].map(
        (m) => `${name}: ${m[1]}`,
      );
    });
    expect(valueExports).toEqual([]);
  });
});

describe('docs/architecture.md, Module graph', () => {
  it("shows the features' graph the code has", () => {
    const doc = readFileSync(join(__dirname, '..', 'docs', 'architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Module graph'));
    const block = /```\n([\s\S]*?)```/.exec(section)![1];
    const features = new Set(readdirSync(join(__dirname, '..', 'src', 'modules')));
    const edges = new Map<string, string[]>();
    for (const e of moduleGraph().values())
      if (features.has(e.from) && features.has(e.to))
        edges.set(e.from, [...(edges.get(e.from) ?? []), e.to].sort());
    const shown = [...edges.keys()]
      .sort()
      .map((from) => `${from} -> ${edges.get(from)!.join(', ')}`)
      .join('\n');
    expect(block.trim()).toBe(shown);
  });
});
