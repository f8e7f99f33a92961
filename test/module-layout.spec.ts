import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Inside a module, folders say roles (docs/architecture.md, Layout): a file's kind decides its
 * folder, so a newcomer finds a module's HTTP surface, pages, jobs, store and domain by name.
 */
const SRC = join(__dirname, '..', 'src');
const MODULES = join(SRC, 'modules');
/** Sub-areas with role folders of their own. */
const AREAS = [
  'claims/reports',
  'eligibility/assisted',
  'eligibility/batches',
  'eligibility/finish',
  'eligibility/intake',
  'eligibility/read',
  'eligibility/retention',
  'eligibility/run',
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** The role folder a file of `src/modules` is in ('' at the module's or area's root). */
export function roleOf(path: string): { area: string; role: string; name: string } {
  const parts = relative(MODULES, path).split(sep);
  let depth = 1;
  for (const area of AREAS)
    if (parts.join('/').startsWith(`${area}/`)) depth = area.split('/').length;
  const rest = parts.slice(depth);
  return {
    area: parts.slice(0, depth).join('/'),
    role: rest.length > 1 ? rest[0] : '',
    name: rest[rest.length - 1],
  };
}

/** Where a file of this kind belongs, or null when its kind says nothing. */
export function expectedRoles(area: string, name: string): string[] | null {
  // A spec's subject: its name less the tier mark (jest.config.js) and `.spec.ts`.
  const subject = name.replace(/(\.pyx12)?(\.(io|pg|redis|browser|tools))?\.spec\.ts$/, '.ts');
  // A feature's pages are a Nest module of their own on the web shell (`<feature>-pages.module.ts`).
  if (subject.endsWith('-pages.module.ts')) return ['pages'];
  if (subject === 'index.ts' || subject.endsWith('.module.ts')) return [''];
  if (subject.endsWith('.controller.ts')) return area === 'web' ? ['pages'] : ['api', 'pages'];
  if (subject.endsWith('.guard.ts')) return ['api'];
  if (/\.(processor|queue|scheduler|maintenance)\.ts$|-poller\.ts$/.test(subject)) return ['jobs'];
  if (/\.(entity|repository|sql)\.ts$|-sql\.ts$/.test(subject)) return ['store'];
  return null;
}

describe('the folders inside a module', () => {
  const all = files(MODULES).filter((f) => f.endsWith('.ts'));

  it('put each kind of file in its role folder', () => {
    const misplaced = all.flatMap((f) => {
      const { area, role, name } = roleOf(f);
      const want = expectedRoles(area, name);
      return want && !want.includes(role)
        ? [`${relative(SRC, f)} (wants ${want.join(' or ')})`]
        : [];
    });
    expect(misplaced).toEqual([]);
  });

  it('keep only role folders at a module root (the web shell keeps its plumbing there)', () => {
    const ROLES = new Set(['api', 'pages', 'jobs', 'store', 'domain']);
    const loose = all.flatMap((f) => {
      const { area, role, name } = roleOf(f);
      if (role === '' && area !== 'web' && expectedRoles(area, name)?.includes('') !== true)
        return [relative(SRC, f)];
      return role === '' || ROLES.has(role) ? [] : [relative(SRC, f)];
    });
    expect(loose).toEqual([]);
  });

  it('tell a misplaced file by its kind', () => {
    expect(expectedRoles('claims', 'claims.repository.ts')).toEqual(['store']);
    expect(expectedRoles('eligibility', 'search.queue.ts')).toEqual(['jobs']);
    expect(expectedRoles('patients', 'patients.controller.ts')).toEqual(['api', 'pages']);
    expect(expectedRoles('web', 'web-users.controller.ts')).toEqual(['pages']);
    expect(expectedRoles('claims', 'claims.module.ts')).toEqual(['']);
    expect(expectedRoles('claims', 'claims-pages.module.ts')).toEqual(['pages']);
    expect(expectedRoles('claims', 'claim-lifecycle.ts')).toBeNull();
    expect(roleOf(join(MODULES, 'claims', 'reports', 'store', 'x.entity.ts'))).toEqual({
      area: 'claims/reports',
      role: 'store',
      name: 'x.entity.ts',
    });
  });

  it('each have a medium test that boots the module alone (test/modules/<module>.*.medium.spec.ts)', () => {
    const medium = readdirSync(join(__dirname, 'modules'));
    const missing = readdirSync(MODULES).filter(
      (m) =>
        statSync(join(MODULES, m)).isDirectory() &&
        !medium.some((f) => f.startsWith(`${m}.`) && f.endsWith('.medium.spec.ts')),
    );
    expect(missing).toEqual([]);
  });
});
