import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { moduleGraph } from '../scripts/module-graph';
import { pageDirs } from '@/modules/web/views';

/**
 * The web module is the shell of the web application (docs/architecture.md, Modules: web): it
 * imports only the modules it sits on and shared code; a feature's pages live in the feature's
 * `pages/`, a Nest module of their own (`<feature>-pages.module.ts`) on the shell and the
 * feature's module, and import the shell through its door.
 */
const SHELL_MAY_IMPORT = new Set([
  'accounts',
  'auth',
  'audit',
  'iframe-session',
  'mail',
  'config',
  'db',
  'http',
  'jobs',
  'kernel',
  'lib',
  'x12',
  'benefits',
]);

const MODULES = join(__dirname, '..', 'src', 'modules');

describe('the web shell', () => {
  it('imports only the modules it sits on and shared code', () => {
    const outside = [...moduleGraph().values()]
      .filter((e) => e.from === 'web' && !SHELL_MAY_IMPORT.has(e.to))
      .map((e) => `web -> ${e.to}: ${[...e.real, ...e.types].join(', ')}`);
    expect(outside).toEqual([]);
  });

  it("is imported by every module with pages, by its pages' files alone (its pages module), and by no module without", () => {
    const withPages = readdirSync(MODULES)
      .filter((name) => name !== 'web' && existsSync(join(MODULES, name, 'pages')))
      .sort();
    const importers = [...moduleGraph().values()]
      .filter((e) => e.to === 'web' && e.from !== '(root)' && e.real.size > 0)
      .map((e) => e.from)
      .sort();
    expect(withPages).toEqual([
      'appointments',
      'claims',
      'eligibility',
      'estimates',
      'insurers',
      'patients',
      'quotes',
      'verification',
      'webhooks',
    ]);
    expect(importers).toEqual(withPages);
    // The feature's own Nest module never imports the shell: it boots without it.
    const outsidePages = [...moduleGraph().values()]
      .filter((e) => e.to === 'web' && e.from !== '(root)')
      .flatMap((e) => [...e.real, ...e.types])
      .filter((f) => !f.startsWith(`src/modules/${f.split('/')[2]}/pages/`));
    expect(outsidePages).toEqual([]);
  });

  it("finds the shell's views first, then every module's, each template name once", () => {
    const dirs = pageDirs('views');
    expect(dirs[0]).toBe(join(MODULES, 'web', 'pages', 'views'));
    expect(dirs.slice(1)).toEqual(
      [
        'appointments',
        'claims',
        'eligibility',
        'estimates',
        'insurers',
        'patients',
        'quotes',
        'verification',
        'webhooks',
      ].map((name) => join(MODULES, name, 'pages', 'views')),
    );
    const names = dirs.flatMap((dir) => readdirSync(dir));
    expect(names).toContain('layout.njk');
    expect(names).toContain('eligibility.njk');
    expect(new Set(names).size).toBe(names.length);
    expect(pageDirs('static')).toEqual([
      join(MODULES, 'web', 'pages', 'static'),
      join(MODULES, 'appointments', 'pages', 'static'),
      join(MODULES, 'estimates', 'pages', 'static'),
      join(MODULES, 'quotes', 'pages', 'static'),
    ]);
  });

  it('refuses a template name found in two folders', () => {
    const modules = mkdtempSync(join(tmpdir(), 'pages-'));
    try {
      const put = (dir: string, name: string) => {
        mkdirSync(join(modules, dir), { recursive: true });
        writeFileSync(join(modules, dir, name), '');
      };
      put('web/pages/views', 'list.njk');
      put('alpha/pages/views', 'item.njk');
      put('beta/lib', 'list.njk');
      // beta has no pages/views: it is not searched.
      expect(pageDirs('views', modules)).toEqual([
        join(modules, 'web', 'pages', 'views'),
        join(modules, 'alpha', 'pages', 'views'),
      ]);
      put('beta/pages/views', 'list.njk');
      expect(() => pageDirs('views', modules)).toThrow(
        `views name list.njk is in both ${join(modules, 'web', 'pages', 'views')} and ${join(modules, 'beta', 'pages', 'views')}.`,
      );
    } finally {
      rmSync(modules, { recursive: true, force: true });
    }
  });
});
