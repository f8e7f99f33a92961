import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { write837 } from './x837.writer';
import { VARIANT_ENVELOPE, X837_VARIANTS } from '../../../test/x12/x837.variants';

/**
 * docs/api.md, Claims: every variant's 837P passes an independent 005010X222A1 validator, pyx12
 * (third_party/pyx12; PYX12_DIR names another checkout of it).
 */
const PYX12 = process.env.PYX12_DIR ?? resolve(__dirname, '../../../third_party/pyx12');

const run = promisify(execFile);

describe('837P variants through pyx12 (independent 5010 validator)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'x837-pyx12-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(Object.entries(X837_VARIANTS))('validates without an error: %s', async (name, claim) => {
    const file = join(dir, `${name.replace(/\W+/g, '-')}.x12`);
    await writeFile(file, write837(claim, { ...VARIANT_ENVELOPE, lineBreaks: true }));
    const { stdout, stderr } = await run(
      '/usr/bin/python3',
      ['-m', 'pyx12.scripts.x12valid', file],
      { cwd: PYX12, timeout: 60_000 },
    ).catch((e: { stdout?: string; stderr?: string; message?: string }) => ({
      stdout: e.stdout ?? '',
      stderr: e.stderr ?? e.message ?? 'pyx12 did not run',
    }));
    const output = `${stdout}\n${stderr}`;
    expect(output.split('\n').filter((l) => /ERROR|Traceback|Failure/.test(l))).toEqual([]);
    expect(output).toContain(`${file}: OK`);
  });
});
