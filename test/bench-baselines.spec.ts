import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/**
 * The bench's bare search baseline (bench/search-baseline.ts) runs the service's own finishing
 * statement, loaded as the bench loads it: ts-node without the service's `@/` module paths. What
 * that file imports must load that way too (a value import reaching `@/…` stops the baseline).
 */
describe('the bench baselines', () => {
  it('load the service SQL they share without its module paths', () => {
    const out = execFileSync(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        '-e',
        "process.stdout.write(typeof require('./src/modules/eligibility/store/search-runs.sql').FINISH_CTES)",
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json') },
      },
    );
    expect(out).toBe('string');
  });
});
