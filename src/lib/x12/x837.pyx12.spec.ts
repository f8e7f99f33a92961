import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { write837 } from './x837.writer';
import { VARIANT_ENVELOPE, X837_VARIANTS } from './x837.variants';

/**
 * docs/api.md, Claims: every variant's 837P passes an independent 005010X222A1 validator, pyx12
 * (../shared/tools/pyx12 beside the repository). A clone without ../shared skips, saying so.
 */
// PYX12_DIR names a pyx12 checkout; the maintainers keep one beside the repository.
const PYX12 = process.env.PYX12_DIR ?? resolve(__dirname, '../../../../shared/tools/pyx12');
const present = existsSync(join(PYX12, 'pyx12'));
if (!present)
  console.warn(
    `pyx12 837P validation skipped: ${PYX12} is absent (set PYX12_DIR to a pyx12 checkout)`,
  );

const run = promisify(execFile);

(present ? describe : describe.skip)(
  '837P variants through pyx12 (independent 5010 validator)',
  () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'x837-pyx12-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it.each(Object.entries(X837_VARIANTS))(
      'validates without an error: %s',
      async (name, claim) => {
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
      },
    );
  },
);
