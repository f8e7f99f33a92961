import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { graphProblems, moduleCycles, moduleGraph } from '../scripts/module-graph';

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

  it('keeps config, common, database and lib free of feature modules', () => {
    const shared = new Set(['config', 'common', 'database', 'lib']);
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
      'claims -> x12',
      'x12 -> claims',
      'claims -> common',
      'common -> patients',
    );
    expect(moduleCycles(edges)).toEqual([
      ['claims', 'x12'],
      ['eligibility', 'estimates', 'verification'],
    ]);
    expect(graphProblems(edges)).toEqual([
      'module cycle: claims, x12',
      'module cycle: eligibility, estimates, verification',
      'common imports the feature patients: src/common/x.ts',
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
