import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataDir, runningPostmaster } from './data-dir';

/** A postmaster.pid as PostgreSQL writes it: pid, data folder, start time, port, … */
function writePid(data: string, pid: number, port = 54329): void {
  writeFileSync(
    join(data, 'postmaster.pid'),
    `${pid}\n${data}\n1795000000\n${port}\n\n127.0.0.1\n`,
  );
}

describe('runningPostmaster (a postmaster.pid left behind)', () => {
  let root: string;
  let children: ChildProcess[];
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'vision-datadir-'));
    mkdirSync(join(root, 'data'));
    children = [];
  });
  afterEach(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('is null when there is none', () => {
    expect(runningPostmaster(dataDir(root))).toBeNull();
  });

  it('removes a file whose process id now belongs to another program', () => {
    const files = dataDir(root);
    writePid(files.data, process.pid);
    expect(runningPostmaster(files)).toBeNull();
    expect(existsSync(join(files.data, 'postmaster.pid'))).toBe(false);
  });

  it('removes a file whose process is gone', async () => {
    const files = dataDir(root);
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.once('exit', resolve));
    writePid(files.data, child.pid!);
    expect(runningPostmaster(files)).toBeNull();
    expect(existsSync(join(files.data, 'postmaster.pid'))).toBe(false);
  });

  it('keeps the file of a running process named postgres, and gives its pid and port', async () => {
    const files = dataDir(root);
    // A program whose command is `postgres`: the system's sleep under that name.
    const binary = join(root, 'postgres');
    copyFileSync('/bin/sleep', binary);
    const child = spawn(binary, ['30'], { stdio: 'ignore' });
    children.push(child);
    await new Promise((resolve) => child.once('spawn', resolve));
    writePid(files.data, child.pid!, 54330);
    expect(runningPostmaster(files)).toEqual({ pid: child.pid, port: 54330 });
    expect(existsSync(join(files.data, 'postmaster.pid'))).toBe(true);
  });
});
