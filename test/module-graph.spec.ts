import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  doorExports,
  graphProblems,
  moduleCycles,
  moduleGraph,
  namesImported,
  SHARED_AREAS,
  unusedDoorExports,
} from '../scripts/module-graph';

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

describe('the doors', () => {
  it('export only what code outside their module imports (npm run lint: graph --check)', () => {
    expect(unusedDoorExports()).toEqual([]);
  });

  it('read the names a door exports and the names an importer takes', () => {
    const door = [
      "export { A, type B, C as D } from './a';",
      "export type { E } from './e';",
      "import { F } from './f';",
    ].join('\n');
    expect(doorExports(door)).toEqual(['A', 'B', 'D', 'E']);
    const user = [
      "import { A, type B } from '@/modules/x-y';",
      "import type {\n  D,\n} from '@/modules/x-y';",
      "import { G } from '@/modules/x-y/deep';",
      "export { E as Z } from '@/modules/x-y';",
    ].join('\n');
    expect(namesImported(user, '@/modules/x-y')).toEqual(['A', 'B', 'D', 'E']);
  });
});

describe('the composition roots', () => {
  const src = join(__dirname, '..', 'src');
  const read = (file: string) => readFileSync(join(src, file), 'utf8');
  const specifiers = (file: string) =>
    [...read(file).matchAll(/from '(@\/modules\/[^']+)'/g)].map((m) => m[1]);

  it('reach the modules through their doors (src/app.module.ts)', () => {
    expect(specifiers('app.module.ts').filter((s) => !/^@\/modules\/[\w-]+$/.test(s))).toEqual([]);
  });

  it('list every entity from its file, so the migration CLI loads no module (src/entities.ts)', () => {
    expect(specifiers('entities.ts').filter((s) => !s.endsWith('.entity'))).toEqual([]);
    const declared = readdirSync(join(src, 'modules'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.entity.ts'))
      .flatMap((f) => [
        ...read(join('modules', f)).matchAll(/@Entity\([\s\S]*?export class (\w+)/g),
      ])
      .map((m) => m[1])
      .sort();
    const listed = /export const entities = \[([^\]]*)\]/
      .exec(read('entities.ts'))![1]
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean)
      .sort();
    expect(declared.length).toBeGreaterThan(20);
    expect(listed).toEqual(declared);
  });
});
