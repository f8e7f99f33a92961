import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { split835 } from './x835.split';

/**
 * docs/api.md, Claim reports and remittances: the reports the readers are tested on (test/x12/reports) are files a payer could
 * send: each passes pyx12 (third_party/pyx12, its 835, 277CA and 999 maps; PYX12_DIR names
 * another checkout of it).
 */
const PYX12 = process.env.PYX12_DIR ?? resolve(__dirname, '../../../third_party/pyx12');
const REPORTS = resolve(__dirname, '../../../test/x12/reports');

const run = promisify(execFile);

/**
 * pyx12 has no TA1 map: it reads a TA1 and then reports the functional group it expects there as
 * missing (the same with a GS after the TA1), while still answering OK. That one line is its
 * limitation, not an error in the file; every other ERROR fails the test.
 */
const TA1_LIMITATION = /Mandatory loop "Functional Group Header" \(GS_LOOP\) missing/;

describe('claim reports through pyx12 (independent validator)', () => {
  const files = readdirSync(REPORTS).filter((f) => f.endsWith('.x12'));
  // pyx12 writes its own acknowledgement beside the file it reads: it reads copies.
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'claim-reports-pyx12-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('has the report files the readers are tested on', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
  });

  /** pyx12's ERROR lines about `file` (none: valid), and whether it ended with OK. */
  async function validate(file: string, name: string): Promise<{ errors: string[]; ok: boolean }> {
    const { stdout, stderr } = await run(
      '/usr/bin/python3',
      ['-m', 'pyx12.scripts.x12valid', file],
      {
        cwd: PYX12,
        timeout: 60_000,
      },
    ).catch((e: { stdout?: string; stderr?: string; message?: string }) => ({
      stdout: e.stdout ?? '',
      stderr: e.stderr ?? e.message ?? 'pyx12 did not run',
    }));
    const output = `${stdout}\n${stderr}`;
    const errors = output
      .split('\n')
      // pyx12's own 999 generator fails on 835s; the README says it is not a validation error.
      .filter((l) => /ERROR/.test(l) && !/Failed to create 999 response/.test(l))
      .filter((l) => !(name.startsWith('ta1') && TA1_LIMITATION.test(l)));
    return { errors, ok: output.includes(`${file}: OK`) };
  }

  it.each(files)('validates without an error: %s', async (name) => {
    const file = join(dir, name);
    await copyFile(join(REPORTS, name), file);
    expect(await validate(file, name)).toEqual({ errors: [], ok: true });
  });

  // A polled 835 is stored per account (x835.split.ts): each account's part is an 835 too.
  it.each([
    ['835-several-claims.x12', { 'CLM-1001': 'a', 'CLM-1003': 'a', 'CLM-1002': 'b' }],
    ['835-several-claims.x12', { 'CLM-1001': 'a', 'CLM-1002': 'a' }],
    ['835-two-sets.x12', { 'CLM-2001': 'a', 'CLM-2002': 'b' }],
  ] as [string, Record<string, string>][])(
    "validates each account's part without an error: %s %j",
    async (name, owners) => {
      const parts = split835(readFileSync(join(REPORTS, name), 'utf8'), (c) => owners[c] ?? null);
      expect(parts.size).toBeGreaterThan(0);
      for (const [account, text] of parts) {
        const file = join(dir, `part-${account}-${Object.keys(owners).join('-')}-${name}`);
        await writeFile(file, text);
        expect(await validate(file, name)).toEqual({ errors: [], ok: true });
      }
    },
  );
});
