import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { FINISH, INSERT_REQUEST, RECORD_ATTEMPT, UPSERT_APPOINTMENTS } from '../bench/lib/bare-sql';
import { rotated } from '../bench/instruments';
import { createTestContext, type TestContext } from './support/app';

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
        "process.stdout.write(typeof require('./src/modules/eligibility/store/search-runs.sql').finishCtes)",
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json') },
      },
    );
    expect(out).toBe('function');
  });
});

describe('the bare baselines’ statements', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  /** Prepares `text` and plans it (EXPLAIN of an EXECUTE with every parameter null: nothing runs). */
  async function plan(name: string, text: string): Promise<void> {
    const db = t.ctx.get(DataSource);
    const params = Math.max(...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
    await db.query(`PREPARE ${name} AS ${text}`);
    try {
      await db.query(`EXPLAIN EXECUTE ${name}(${new Array(params).fill('NULL').join(', ')})`);
    } finally {
      await db.query(`DEALLOCATE ${name}`);
    }
  }

  // Each is parsed and planned against the migrated schema: a column renamed or a conflict
  // target a migration changed (issue 43: webhook_deliveries_once_key became partial) fails here.
  it.each([
    ['INSERT_REQUEST', INSERT_REQUEST],
    ['FINISH', FINISH],
    ['RECORD_ATTEMPT', RECORD_ATTEMPT],
    // Scenario 9's bare sync (bench/sync.ts).
    ['UPSERT_APPOINTMENTS', UPSERT_APPOINTMENTS],
  ])('%s is planned against the schema', async (name, text) => {
    await plan(`bench_${name.toLowerCase()}`, text);
  });

  it('refuses a conflict target the schema does not have (the check can fail)', async () => {
    const old = FINISH.replace(' WHERE resource_key IS NULL DO NOTHING', ' DO NOTHING');
    expect(old).not.toBe(FINISH);
    await expect(plan('bench_old', old)).rejects.toThrow(/ON CONFLICT/);
  });
});

describe('scenario 11’s turns (bench/instruments.ts)', () => {
  it('start each round with the next variant, every variant once per round', () => {
    const rounds = [0, 1, 2, 3].map((i) => rotated(['off', 'metrics', 'tracing'], i));
    expect(rounds).toEqual([
      ['off', 'metrics', 'tracing'],
      ['metrics', 'tracing', 'off'],
      ['tracing', 'off', 'metrics'],
      ['off', 'metrics', 'tracing'],
    ]);
  });
});
