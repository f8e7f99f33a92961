import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(__dirname, '..');

/** Lints each text as the named file, with the repository's own lint configuration. */
function lint(cases: { file: string; text: string }[]): string[][] {
  const input = JSON.stringify(
    cases.map((c) => ({ filePath: resolve(root, c.file), text: c.text })),
  );
  const out = execFileSync(process.execPath, [resolve(root, 'test/support/lint-probe.mjs')], {
    cwd: root,
    input,
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[][];
}

const REACHES_THE_DATABASE = `import { DataSource } from 'typeorm';
import { queryPrepared } from '@/platform/db/pg-pool';
export const run = (db: DataSource) => queryPrepared(db, 'SELECT 1');
`;
// DbQueue names its queues' tables through their specs, never itself (issue 42).
const WRITES_A_LEASE =
  'export const sql = (table: string) => `UPDATE ${table} SET lease_job = NULL`;\n';
const OTHER_ENTITY_VALUE = `import { Claim } from '@/modules/claims/store/claim.entity';
export const table: unknown = Claim;
`;
const OTHER_ENTITY_TYPE = `import type { Claim } from '@/modules/claims/store/claim.entity';
export const code = (c: Claim): string => c.code;
`;
const THROUGH_THE_DOOR = `import { PatientsService } from '@/modules/patients';
export const service: unknown = PatientsService;
`;
const PAST_THE_DOOR = `import { PatientsService } from '@/modules/patients/domain/patients.service';
export const service: unknown = PatientsService;
`;

const OTHER_MODULES_TABLE = `export const lock = 'SELECT id FROM eligibility_requests WHERE id = 1 FOR UPDATE';
export const erase = (ids: string[]) => ({ text: \`delete from  "mail_messages" WHERE id = ANY('{}')\`, ids });
`;
const OWN_TABLE = `export const claim = 'SELECT id FROM claims WHERE id = 1';
export const part = \`INSERT INTO claim_report_parts (id) VALUES (1)\`;
export const section = 'eligibility_requests';
`;
const SHARED_TABLE = 'export const beat = `UPDATE service_processes SET seen_at = now()`;\n';

const SQL_THE_OLD_WAYS = `import type { DataSource } from 'typeorm';
export const a = (db: DataSource) => db.getRepository('x').createQueryBuilder('x');
export const b = (db: DataSource) => db.query('SELECT 1');
export const c = 'SELECT id FROM t WHERE id = $1';
`;
const SQL_TAG = `import type { DataSource } from 'typeorm';
import { query, sql } from '@/platform/db/sql';
export const a = (db: DataSource, id: string) => query(db, sql\`SELECT id FROM t WHERE id = \${id}\`);
export const price = '$45.50';
export const swap = (t: string) => t.replace(/(a)(b)/, '$2$1');
`;

/** Issue 32's boundaries, as lint enforces them (eslint.config.mjs: boundaries, leaseColumns). */
describe('lint boundaries', () => {
  let results: string[][];

  beforeAll(() => {
    results = lint([
      { file: 'src/modules/patients/domain/patient-links.service.ts', text: REACHES_THE_DATABASE },
      { file: 'src/modules/patients/store/patients.repository.ts', text: REACHES_THE_DATABASE },
      { file: 'src/modules/claims/domain/claims.service.ts', text: WRITES_A_LEASE },
      { file: 'src/modules/claims/store/claims.repository.ts', text: WRITES_A_LEASE },
      { file: 'src/platform/jobs/db-queue.ts', text: WRITES_A_LEASE },
      { file: 'src/modules/patients/domain/patients.service.ts', text: OTHER_ENTITY_VALUE },
      { file: 'src/modules/patients/domain/patients.service.ts', text: OTHER_ENTITY_TYPE },
      { file: 'src/modules/claims/domain/claims.service.ts', text: THROUGH_THE_DOOR },
      { file: 'src/modules/claims/domain/claims.service.ts', text: PAST_THE_DOOR },
      { file: 'src/modules/patients/domain/patient-links.service.ts', text: PAST_THE_DOOR },
      { file: 'src/modules/claims/store/claims.repository.ts', text: OTHER_MODULES_TABLE },
      { file: 'src/modules/claims/store/claims.repository.ts', text: OWN_TABLE },
      { file: 'src/platform/jobs/process-registry.ts', text: OTHER_MODULES_TABLE },
      { file: 'src/platform/jobs/process-registry.ts', text: SHARED_TABLE },
      { file: 'src/modules/claims/domain/claim-x12.spec.ts', text: OTHER_MODULES_TABLE },
      { file: 'src/modules/eligibility/store/probe.repository.ts', text: SQL_THE_OLD_WAYS },
      { file: 'src/modules/eligibility/store/probe.repository.ts', text: SQL_TAG },
      { file: 'src/platform/jobs/probe.repository.ts', text: SQL_THE_OLD_WAYS },
      { file: 'src/modules/claims/store/claims.repository.ts', text: SQL_THE_OLD_WAYS },
    ]);
  }, 120_000);

  it('keeps typeorm and the pg pool out of feature code, and lets repositories use them', () => {
    expect(results[0]).toEqual([
      '@typescript-eslint/no-restricted-imports:1',
      '@typescript-eslint/no-restricted-imports:2',
    ]);
    expect(results[1]).toEqual([]);
  });

  it('leaves the lease columns to DbQueue, in repositories too', () => {
    expect(results[2]).toEqual(['no-restricted-syntax:1']);
    expect(results[3]).toEqual(['no-restricted-syntax:1']);
    expect(results[4]).toEqual([]);
  });

  it("lets feature code name another module's entity as a type only", () => {
    expect(results[5]).toEqual([
      '@typescript-eslint/no-restricted-imports:1',
      'no-restricted-imports:1',
    ]);
    // A type is allowed by the entity rule; only the door's refusal remains.
    expect(results[6]).toEqual(['no-restricted-imports:1']);
  });

  it("refuses an import past another module's door, not one through it or inside the module", () => {
    expect(results[7]).toEqual([]);
    expect(results[8]).toEqual(['no-restricted-imports:1']);
    expect(results[9]).toEqual([]);
  });

  it("refuses another module's table in SQL text (issue 42), not the module's own nor in specs", () => {
    // Entities name eligibility_requests (eligibility's) and claims (claims'); claim_report_parts
    // and mail_messages' owners come from the entity scan and the list of tables without one.
    expect(results[10]).toEqual(['tables/owner:1', 'tables/owner:2']);
    expect(results[11]).toEqual([]);
    // Shared code names no feature table, only its own (the process registry's).
    expect(results[12]).toEqual(['tables/owner:1', 'tables/owner:2']);
    expect(results[13]).toEqual([]);
    expect(results[14]).toEqual([]);
  });

  it('holds the folders on the SQL tag to it: no query builder, getRepository, .query(text) or $n', () => {
    expect(results[15]).toEqual([
      'sql/one-idiom:2',
      'sql/one-idiom:2',
      'sql/one-idiom:3',
      'sql/one-idiom:4',
    ]);
    // The tag itself, and a dollar amount or a replacement pattern that is not SQL.
    expect(results[16]).toEqual([]);
    // A folder not on the tag yet (src/platform/jobs: DbQueue's own statements).
    expect(results[17]).toEqual([]);
  });

  it('holds every module to the SQL tag, claims included', () => {
    expect(results[18]).toEqual([
      'sql/one-idiom:2',
      'sql/one-idiom:2',
      'sql/one-idiom:3',
      'sql/one-idiom:4',
    ]);
  });
});

const ADDS_BULL_JOBS = `import type { Queue } from 'bull';
export const add = (queue: Queue, id: string) => queue.add('batch-search', { id });
export const bulk = (q: { queue: Queue }) => q.queue.addBulk([]);
`;
const INJECTS_A_BULL_QUEUE = `import { InjectQueue } from '@nestjs/bull';
export const inject: unknown = InjectQueue;
`;

/** Bull's jobs are DbQueue's (eslint.config.mjs: queueIdiom, `queues/bull`). */
describe('lint: Bull jobs through DbQueue', () => {
  let results: string[][];

  beforeAll(() => {
    results = lint([
      { file: 'src/modules/eligibility/jobs/batch-search.queue.ts', text: ADDS_BULL_JOBS },
      { file: 'src/platform/jobs/bull-wakeups.ts', text: ADDS_BULL_JOBS },
      { file: 'src/modules/mail/domain/mail.service.ts', text: INJECTS_A_BULL_QUEUE },
    ]);
  }, 120_000);

  it('refuses a Bull add outside src/platform/jobs, and a Bull queue injected in a feature', () => {
    expect(results[0]).toEqual(['queues/bull:2', 'queues/bull:3']);
    expect(results[1]).toEqual([]);
    expect(results[2]).toEqual(['queues/bull:1']);
  });
});

const BUILDS_JOB_IDS = `export const opts = (job: string, id: string) => ({ jobId: \`\${job}:\${id}:a0\` });
export const run = (job: string, tag: string, n: number) => \`\${job}:l\${tag}.\${n}\`;
export const first = (u: string) => \`first:\${u}\`;
export const byHand = (job: string, id: string) => ({ jobId: job + id });
export const key = (a: string, b: string) => \`patient-similar:\${a}:\${b}\`;
`;

/** Job and run ids come from job-id.ts (eslint.config.mjs: queueIdiom, `queues/job-id`). */
describe('lint: job ids from job-id.ts', () => {
  let results: string[][];

  beforeAll(() => {
    results = lint([
      { file: 'src/modules/eligibility/jobs/batch-search.queue.ts', text: BUILDS_JOB_IDS },
      { file: 'src/platform/jobs/job-id.ts', text: BUILDS_JOB_IDS },
    ]);
  }, 120_000);

  it('refuses a job, lane-run or first-attempt id made by hand, not other keys, nor in job-id.ts', () => {
    expect(results[0]).toEqual([
      'queues/job-id:1',
      'queues/job-id:2',
      'queues/job-id:3',
      'queues/job-id:4',
    ]);
    expect(results[1]).toEqual([]);
  });
});

const HARD_CODED_QUEUE = `export const spec = { concurrency: 5, retries: { doublingFromMs: 5_000, maxAttempts: 12 } };
export const worker = { concurrency: () => 5 };
export const schedule = { delaysMs: [60_000, 300_000] };
export const fromConfig = (c: { n: number; base: number }) => ({
  concurrency: c.n,
  retries: { doublingFromMs: c.base, maxAttempts: c.n },
});
`;

/** Concurrency and retries from validated config (eslint.config.mjs: queueIdiom, `queues/declared`). */
describe('lint: declared concurrency and retries', () => {
  let results: string[][];

  beforeAll(() => {
    results = lint([
      { file: 'src/modules/mail/jobs/mail.queue.ts', text: HARD_CODED_QUEUE },
      { file: 'src/platform/config/queues.ts', text: HARD_CODED_QUEUE },
    ]);
  }, 120_000);

  it('refuses a number for a concurrency or a retry policy, not one read from the config', () => {
    expect(results[0]).toEqual([
      'queues/declared:1',
      'queues/declared:1',
      'queues/declared:1',
      'queues/declared:2',
      'queues/declared:3',
    ]);
    // The config's defaults are where the numbers live.
    expect(results[1]).toEqual([]);
  });
});

const MAKES_A_REDIS_CLIENT = `import Redis from 'ioredis';
export const client = new Redis('redis://127.0.0.1:6379');
`;
const TYPES_A_REDIS_CLIENT = `import type Redis from 'ioredis';
export const ping = (redis: Redis) => redis.ping();
`;

/** Redis clients from the Redis module (eslint.config.mjs: queueIdiom, `queues/redis`). */
describe('lint: Redis clients from the Redis module', () => {
  let results: string[][];

  beforeAll(() => {
    results = lint([
      { file: 'src/modules/auth/domain/api-key-cache.ts', text: MAKES_A_REDIS_CLIENT },
      { file: 'src/modules/auth/domain/rate-limiter.ts', text: TYPES_A_REDIS_CLIENT },
      { file: 'src/modules/redis/redis.module.ts', text: MAKES_A_REDIS_CLIENT },
    ]);
  }, 120_000);

  it('refuses ioredis as a value and new Redis( outside src/modules/redis; a type import is fine', () => {
    expect(results[0]).toEqual(['queues/redis:1', 'queues/redis:2']);
    expect(results[1]).toEqual([]);
    expect(results[2]).toEqual([]);
  });
});

const STARTS_WORK_AFTER_A_COMMIT = `interface Db { transaction<T>(w: (tx: unknown) => Promise<T>): Promise<T> }
interface Intake { start(ids: string[]): Promise<void> }
export async function run(db: Db, intake: Intake): Promise<void> {
  const ids = await db.transaction(async () => ['1']);
  await intake.start(ids);
}
export async function chained(db: Db, q: { dispatch(id: string): Promise<void> }): Promise<void> {
  await db.transaction(async () => '1').then((id) => q.dispatch(id));
}
`;
const HANDS_OFF_IN_THE_TRANSACTION = `interface Tx { afterCommit(f: () => unknown): void }
interface Db { transaction<T>(w: (tx: Tx) => Promise<T>): Promise<T> }
export async function run(db: Db, q: { dispatch(id: string): Promise<void> }): Promise<void> {
  await db.transaction(async (tx) => {
    tx.afterCommit(() => q.dispatch('1'));
  });
}
`;

/** One after-commit hand-off (eslint.config.mjs: queueIdiom, `queues/after-commit`). */
describe('lint: work after a commit is handed off by its owner', () => {
  let results: string[][];

  beforeAll(() => {
    results = lint([
      {
        file: 'src/modules/appointments/domain/appointment-checks.ts',
        text: STARTS_WORK_AFTER_A_COMMIT,
      },
      {
        file: 'src/modules/appointments/domain/appointment-checks.ts',
        text: HANDS_OFF_IN_THE_TRANSACTION,
      },
    ]);
  }, 120_000);

  it('refuses a caller starting work once transaction() answered, not tx.afterCommit inside it', () => {
    expect(results[0]).toEqual(['queues/after-commit:5', 'queues/after-commit:8']);
    expect(results[1]).toEqual([]);
  });
});

const WRITES_AN_INSTANT = 'export const at = (d: Date): string => d.toISOString();\n';
const WRITES_AN_ENVELOPE = `import type { Response } from 'express';
export const a = (res: Response) => res.status(404).json({ detail: 'Not found.' });
export const b = (res: Response) => res.json({ ok: true });
export const c = (response: Response) => response.send({ errors: { $: ['x'] } });
export const d = (res: Response) => res.end(JSON.stringify({ detail: 'x' }));
export const e = (res: Response) => res.status(201).send('made');
`;

/** Instants and error answers (eslint.config.mjs: houseIdioms). */
describe('lint: instants through the time helper, errors through the filter', () => {
  let results: string[][];

  beforeAll(() => {
    results = lint([
      { file: 'src/modules/claims/domain/claims.service.ts', text: WRITES_AN_INSTANT },
      { file: 'src/platform/kernel/time.ts', text: WRITES_AN_INSTANT },
      { file: 'src/modules/claims/domain/claims.service.spec.ts', text: WRITES_AN_INSTANT },
      { file: 'src/modules/claims/api/claims.controller.ts', text: WRITES_AN_ENVELOPE },
      { file: 'src/platform/http/http-exception.filter.ts', text: WRITES_AN_ENVELOPE },
    ]);
  }, 120_000);

  it('refuses toISOString() outside src/platform/kernel/time.ts, not in time.ts nor in specs', () => {
    expect(results[0]).toEqual(['house/instants:1']);
    expect(results[1]).toEqual([]);
    expect(results[2]).toEqual([]);
  });

  it('refuses an error body written on a response, not a status alone nor in the filter', () => {
    expect(results[3]).toEqual([
      'house/envelopes:2',
      'house/envelopes:3',
      'house/envelopes:4',
      'house/envelopes:5',
    ]);
    expect(results[4]).toEqual([]);
  });
});

const LISTS_BY_HAND = `import { IntField, StringField } from '@/platform/http/validation/fields';
import { PAGE_SIZES, PageCursorField, PageSizeField } from '@/platform/http/pagination/page-query';
export class ByHandQuery {
  @IntField({ min: 1, max: 200 }) limit?: number;
  @StringField({ maxLength: 200 }) cursor?: string;
}
export class BareMaxQuery {
  @PageSizeField(50, 500) limit?: number;
  @PageCursorField() cursor?: string;
}
export class TableQuery {
  @PageSizeField(PAGE_SIZES.list) limit?: number;
  @PageCursorField() cursor?: string;
}
`;

/** One list form, the page sizes in one table (eslint.config.mjs: listsIdiom, `lists/page-size`). */
describe('lint: list queries on the shared page fields', () => {
  let results: string[][];

  beforeAll(() => {
    results = lint([
      { file: 'src/modules/claims/api/dto/list-claims.query.ts', text: LISTS_BY_HAND },
      { file: 'src/platform/http/pagination/list-query.ts', text: LISTS_BY_HAND },
    ]);
  }, 120_000);

  it('refuses a page field by hand and a bare maximum, not a row of PAGE_SIZES nor in pagination/', () => {
    expect(results[0]).toEqual(['lists/page-size:4', 'lists/page-size:5', 'lists/page-size:8']);
    expect(results[1]).toEqual([]);
  });
});

const PAGE_ROUTES_BY_HAND = `import { Controller, Get, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
@ApiExcludeController()
@Controller('app/things')
export class Things {
  @Get()
  list(@Req() _req: unknown): void {}
  @Post()
  add(@Req() _req: unknown): void {}
}
`;
const PAGE_ROUTES_BY_COMPOSITE = `import { Req } from '@nestjs/common';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
@PageController('app/things')
export class Things {
  @PageRead()
  list(@Req() _req: unknown): void {}
  @PageWrite()
  add(@Req() _req: unknown): void {}
}
`;

/** One route declaration for pages (eslint.config.mjs: pageRoutes, `pages/route`). */
describe('lint: page routes through the page composites', () => {
  let results: string[][];

  beforeAll(() => {
    results = lint([
      { file: 'src/modules/patients/pages/web-things.controller.ts', text: PAGE_ROUTES_BY_HAND },
      { file: 'src/modules/web/pages/web-things.controller.ts', text: PAGE_ROUTES_BY_HAND },
      {
        file: 'src/modules/patients/pages/web-things.controller.ts',
        text: PAGE_ROUTES_BY_COMPOSITE,
      },
    ]);
  }, 120_000);

  it("refuses Nest's Controller, Get, Post and ApiExcludeController in pages, not the composites", () => {
    const byHand = ['pages/route:1', 'pages/route:1', 'pages/route:1', 'pages/route:2'];
    expect(results[0]).toEqual(byHand);
    expect(results[1]).toEqual(byHand);
    expect(results[2]).toEqual([]);
  });
});
