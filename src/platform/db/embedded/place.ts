import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { binariesIn, type PostgresBinaries } from './binaries';
import { type DataDir, dataDir, type ServerUser, SUPERUSER } from './data-dir';

/**
 * Where root's embedded servers live when the folder given (var/postgres) is out of reach of the
 * user that runs them: one folder per checkout, named by a hash of its var/postgres path, so each
 * start of a checkout finds its data again (README.md, Quick start).
 */
export const ELSEWHERE = '/var/lib/vision-eligibility';

/** The embedded server's files, and who runs it. */
export interface Place {
  files: DataDir;
  user: ServerUser;
  /** Why the files are not in the folder given, which is `from` (null: they are there). */
  moved: { why: string; from: string } | null;
  /** Why the server cannot start at all (makePlace refuses with it). */
  refused?: string;
}

/**
 * README.md, Quick start. Not as root: the folder given, run by this user. As root (PostgreSQL
 * refuses to run as root): run by the owner of the cluster found in the folder given, or else in
 * its place under ELSEWHERE; with none yet, by the user `postgres`, or `nobody` on a machine
 * without one, in the folder given when that user can reach it, else under ELSEWHERE. Nothing
 * is created here (nor refused: makePlace does both).
 */
export function placeOf(dir: string): Place {
  const given = dataDir(dir);
  if (process.getuid?.() !== 0) return { files: given, user: null, moved: null };
  const other = dataDir(
    join(ELSEWHERE, createHash('sha256').update(given.root).digest('hex').slice(0, 12)),
  );
  const elsewhere = (user: NonNullable<ServerUser>) => ({
    files: other,
    user,
    moved: { why: `as the user ${user.name} cannot reach ${dir}`, from: given.root },
  });
  const owner = clusterOwner(given);
  if (owner) return { files: given, user: owner, moved: null };
  const otherOwner = clusterOwner(other);
  if (otherOwner) return elsewhere(otherOwner);
  const user = account(SUPERUSER) ?? account('nobody');
  if (!user) {
    const refused =
      'PostgreSQL refuses to run as root and this machine has neither a user postgres nor ' +
      'nobody to run the embedded server as: create one (useradd --system postgres), run as ' +
      'another user, or set DATABASE_URL';
    return { files: given, user: null, moved: null, refused };
  }
  return reaches(user, given.root) ? { files: given, user, moved: null } : elsewhere(user);
}

/**
 * Makes the place's folder: as root, each folder made here is opened to everyone (0755, whatever
 * the umask), so the server's user reaches the cluster inside (itself 0700, its own).
 */
export function makePlace({ files, user, moved, refused }: Place): void {
  if (refused) throw new Error(refused);
  let made: string | undefined;
  try {
    made = mkdirSync(files.root, { recursive: true });
  } catch (e) {
    if (!moved || !user) throw e;
    throw new Error(
      `${files.root} cannot be made (${(e as NodeJS.ErrnoException).code}) for the embedded ` +
        `PostgreSQL, ${moved.why}: ${letThrough(user, moved.from)}`,
    );
  }
  if (!user) return;
  // `made`: the first folder mkdir made (undefined: none), so it and those below it.
  for (const folder of above(files.root)) {
    if (!made || folder.length < made.length) break;
    chmodSync(folder, 0o755);
  }
  if (!reaches(user, files.root)) {
    throw new Error(
      `the embedded PostgreSQL runs as the user ${user.name}, who cannot reach ${files.root}: ` +
        letThrough(user, files.root),
    );
  }
  // The folder this one stands in for, for whoever finds it.
  if (moved) writeFileSync(join(files.root, 'origin'), `${moved.from}\n`);
}

/**
 * Binaries the server's user can run: the package's, or, when that user cannot reach them (the
 * checkout's node_modules in a private folder), a copy in the place's folder, made once per
 * release (older copies go). Called holding the start lock.
 */
export function runnableBinaries(bins: PostgresBinaries, { files, user }: Place): PostgresBinaries {
  if (!user || [bins.initdb, bins.postgres].every((bin) => reaches(user, bin, true))) return bins;
  const name = `postgres-${bins.release}`;
  const copy = join(files.root, name);
  if (!existsSync(copy)) {
    const partial = `${copy}.partial`;
    rmSync(partial, { recursive: true, force: true });
    // verbatimSymlinks: the libraries' links stay relative, inside the copy.
    cpSync(bins.native, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    renameSync(partial, copy);
    for (const old of readdirSync(files.root)) {
      if (old.startsWith('postgres-') && old !== name) {
        rmSync(join(files.root, old), { recursive: true, force: true });
      }
    }
  }
  return binariesIn(copy, bins.release);
}

/**
 * The first folder on the way to `path` (by its own name and its real one) that `user` may not
 * enter, or `path` itself when `executable` and it may not run it; null: none. The server runs
 * with its user's uid and primary group only. Folders not made yet do not bar: makePlace opens
 * them.
 */
export function barrier(
  user: NonNullable<ServerUser>,
  path: string,
  executable = false,
): string | null {
  let existing = path;
  while (!existsSync(existing)) existing = dirname(existing);
  if (executable && existing !== path) return path;
  const may = (p: string) => {
    const { mode, uid, gid } = statSync(p);
    return ((uid === user.uid ? mode >> 6 : gid === user.gid ? mode >> 3 : mode) & 0o1) !== 0;
  };
  const real = realpathSync(existing);
  const folders = (p: string) => [...above(executable ? dirname(p) : p)].reverse();
  const barred = [...folders(existing), ...folders(real)].find((f) => !may(f));
  return barred ?? (executable && !may(real) ? path : null);
}

export const reaches = (user: NonNullable<ServerUser>, path: string, executable = false) =>
  barrier(user, path, executable) === null;

/** The fix a refusal names: the folder to open to the server's user, or the other ways. */
function letThrough(user: NonNullable<ServerUser>, path: string): string {
  const barred = barrier(user, path);
  const open = barred ? `chmod o+x ${barred} (it bars the user ${user.name}), ` : '';
  return `${open}run as another user, or set DATABASE_URL`;
}

/** `path` and every folder above it, up to the root. */
function* above(path: string): Generator<string> {
  for (let p = path; ; p = dirname(p)) {
    yield p;
    if (dirname(p) === p) return;
  }
}

/** The uid and gid of an account of this machine, or null when there is none. */
function account(name: string): NonNullable<ServerUser> | null {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }));
    return { uid: id('-u'), gid: id('-g'), name };
  } catch {
    return null;
  }
}

/** Who owns the cluster in `files` (its server runs as them), or null when there is none. */
function clusterOwner(files: DataDir): NonNullable<ServerUser> | null {
  if (!existsSync(join(files.data, 'PG_VERSION'))) return null;
  const { uid, gid } = statSync(files.data);
  let name = `uid ${uid}`;
  try {
    name = execFileSync('id', ['-nu', String(uid)], { encoding: 'utf8' }).trim();
  } catch {
    // No account of that uid any more: named by its number.
  }
  return { uid, gid, name };
}
