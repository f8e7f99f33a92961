import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataDir } from './data-dir';
import { barrier, makePlace } from './place';

/** Another user: neither the owner of the folders made here nor in their group. */
const stranger = { uid: 54321, gid: 54321, name: 'stranger' };

describe('barrier (the folder the server user may not enter)', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'vision-barrier-'));
    chmodSync(root, 0o755);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is the private folder on the way, and none once it lets others through', () => {
    const home = join(root, 'home');
    mkdirSync(join(home, 'checkout'), { recursive: true });
    chmodSync(home, 0o700);
    expect(barrier(stranger, join(home, 'checkout', 'var', 'postgres'))).toBe(home);
    chmodSync(home, 0o711);
    expect(barrier(stranger, join(home, 'checkout', 'var', 'postgres'))).toBeNull();
  });

  it('follows a link to where it leads: the real folder bars too', () => {
    const hidden = join(root, 'hidden');
    mkdirSync(join(hidden, 'modules'), { recursive: true });
    chmodSync(hidden, 0o700);
    symlinkSync(join(hidden, 'modules'), join(root, 'modules'));
    expect(barrier(stranger, join(root, 'modules'))).toBe(hidden);
  });

  it('is the program itself when it may not run it, or when it is missing', () => {
    const program = join(root, 'postgres');
    writeFileSync(program, '');
    chmodSync(program, 0o700);
    expect(barrier(stranger, program, true)).toBe(program);
    chmodSync(program, 0o755);
    expect(barrier(stranger, program, true)).toBeNull();
    expect(barrier(stranger, join(root, 'initdb'), true)).toBe(join(root, 'initdb'));
  });
});

describe('makePlace (where the server cannot go, start-up refuses in one line naming the fix)', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'vision-place-'));
    chmodSync(root, 0o700);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('names the folder that bars the user when the other place cannot be made either', () => {
    const given = join(root, 'var', 'postgres');
    // A file where a folder should be: no folder can be made below it, whoever asks.
    const blocked = join(root, 'lib');
    writeFileSync(blocked, '');
    const place = {
      files: dataDir(join(blocked, 'vision-eligibility', '0123456789ab')),
      user: stranger,
      moved: { why: 'as the user stranger cannot reach var/postgres', from: given },
    };
    expect(() => makePlace(place)).toThrow(
      new RegExp(
        `^${blocked}/vision-eligibility/0123456789ab cannot be made \\(ENOTDIR\\) for the embedded ` +
          'PostgreSQL, as the user stranger cannot reach var/postgres: ' +
          `chmod o\\+x ${root} \\(it bars the user stranger\\), run as another user, or set DATABASE_URL$`,
      ),
    );
  });

  it('says what to create when there is nobody to run the server as', () => {
    const refused = 'PostgreSQL refuses to run as root and this machine has neither …';
    const place = { files: dataDir(join(root, 'var')), user: null, moved: null, refused };
    expect(() => makePlace(place)).toThrow(refused);
  });
});
