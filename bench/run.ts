/**
 * `npm run bench` (full, under 10 minutes) and `npm run bench -- --quick` (CI, under 2 minutes).
 *
 * Builds the production bundle, starts it on its own database and Redis prefix, starts the bare
 * baseline (bench/baseline-server.ts), drives every scenario of the performance issue from load
 * worker processes on loopback, prints the table of figures against their targets and writes
 * bench/results/latest.json (latest-quick.json for --quick). See bench/README.md.
 *
 * Exit code: 1 on errors only (non-2xx answers, socket errors, missing or badly signed webhooks,
 * searches that never finish, a crashed process). A missed timing target is reported, not fatal.
 *
 * Flags: --quick, --keep (leave the database for EXPLAIN afterwards), --profile (service runs with
 * --cpu-prof; profiles in bench/results/profiles/), --only=1,2,5 (scenarios to run; 8 and 9 are
 * the appointments': checks due at once (bench/checks.ts), a sync's upsert (bench/sync.ts); 10 the
 * Universal Search's time to complete (bench/universal.ts); 11 what metrics and tracing cost
 * (bench/instruments.ts)).
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { batchRows, runBatchScenario } from './batch';
import { checksRows, runChecksScenario } from './checks';
import { Api } from './lib/api';
import { CpuMonitor, type CpuSplit, treeCpuMs } from './lib/cpu';
import { connect, dropDatabase, explain, seedPatients, seedRequests } from './lib/db';
import type { CannonJob, CannonResult, E2eJob, E2eResult } from './lib/jobs';
import { freePort, killAllNow, RssMonitor, run, runWorker, sleep } from './lib/proc';
import { type Server, startBaseline, startService } from './lib/service';
import { ms, pct, perSec, ratio, row, Row, secs, table } from './lib/report';
import { round } from './lib/stats';
import { runSyncScenario, syncRows } from './sync';
import { runUniversalScenario, universalRows } from './universal';
import { instrumentsRows, runInstrumentsScenario } from './instruments';

const ROOT = resolve(__dirname, '..');
const BENCH = __dirname;
const RESULTS = join(BENCH, 'results');
const BUILD_DIR = join(ROOT, 'node_modules', '.cache', 'vision-bench');
const TMP = join(tmpdir(), `vision-bench-${process.pid}`);

const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const KEEP = args.includes('--keep');
const PROFILE = args.includes('--profile');
const ONLY = new Set(
  (
    args
      .find((a) => a.startsWith('--only='))
      ?.slice(7)
      .split(',') ?? ['1', '2', '3', '4', '5', '7', '8', '9', '10', '11']
  ).map((s) => s.trim()),
);

/** Sizes of each scenario. Quick keeps every code path and error check, at a fraction of the load. */
const S = QUICK
  ? {
      s1: { connections: 64, warmupSec: 1, durationSec: 3, rounds: 1, stored: 2_000, paths: 2_000 },
      s2: { connections: 64, durationSec: 3, rounds: 1 },
      s3: { rate: 25, durationSec: 6, graceSec: 30 },
      s4: { count: 500, code: 'delay_10', delaySec: 10, limitSec: 20, submitSec: 20, graceSec: 60 },
      s5: { requests: 20_000, patients: 10_000, pageDepth: 50, connections: 8, durationSec: 2 },
      s7: { connections: 64, warmupSec: 1, durationSec: 3, postSec: 3 },
      s8: { checks: 200, rate: 40, aloneSec: 4 },
      s9: { items: 500, rounds: 1 },
      s10: { rounds: 10 },
      s11: { rounds: 1, getSec: 2, postSec: 2, connections: 64 },
    }
  : {
      s1: {
        connections: 64,
        warmupSec: 3,
        durationSec: 12,
        rounds: 3,
        stored: 10_000,
        paths: 10_000,
      },
      s2: { connections: 64, durationSec: 10, rounds: 2 },
      s3: { rate: 200, durationSec: 30, graceSec: 30 },
      s4: {
        count: 10_000,
        code: 'delay_30',
        delaySec: 30,
        limitSec: 40,
        submitSec: 60,
        graceSec: 90,
      },
      s5: {
        requests: 1_000_000,
        patients: 500_000,
        pageDepth: 1_000,
        connections: 8,
        durationSec: 8,
      },
      s7: { connections: 64, warmupSec: 3, durationSec: 12, postSec: 10 },
      s8: { checks: 2_000, rate: 40, aloneSec: 15 },
      s9: { items: 5_000, rounds: 3 },
      s10: { rounds: 200 },
      s11: { rounds: 5, getSec: 4, postSec: 3, connections: 64 },
    };

const PG_BASE = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const DATABASE_URL = `${PG_BASE}/${QUICK ? 'vision_bench_quick' : 'vision_bench'}`;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const REDIS_PREFIX = QUICK ? 'vision_bench_quick' : 'vision_bench';
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 20);
// At least 32 characters: production refuses a shorter secret of the caller's own.
const SECRET = 'bench-secret-0123456789abcdef0123456789';
const PATIENT = { first_name: 'Maria', last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' };

interface Account {
  apiKey: string;
  accountId: string;
  locationId: string;
}

const rows: Row[] = [];
const errors: string[] = [];
const figures: Record<string, unknown> = {};
const started = Date.now();

function fail(scenario: string, message: string): void {
  errors.push(`${scenario}: ${message}`);
  process.stderr.write(`ERROR ${scenario}: ${message}\n`);
}

function note(message: string): void {
  process.stdout.write(`[${secs((Date.now() - started) / 1000).padStart(7)}] ${message}\n`);
}

/** Load errors of any kind (non-2xx, socket errors, timeouts) are errors of the run. */
function checkCannon(scenario: string, r: CannonResult): void {
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0) {
    fail(
      scenario,
      `${bad} failed requests (${JSON.stringify(r.statusCodes)}, errors ${r.errors}, timeouts ${r.timeouts})`,
    );
  }
  if (r.requests === 0) fail(scenario, 'no request was answered');
}

// Build, start, stop ---------------------------------------------------------------------------

async function build(): Promise<string> {
  // The same compiler and config as `npm run build`, into a private directory: other work in
  // this tree may rebuild (and delete) dist/ while the bench runs from it.
  await mkdir(BUILD_DIR, { recursive: true });
  const tsconfig = join(BUILD_DIR, 'tsconfig.build.json');
  await writeFile(
    tsconfig,
    JSON.stringify({
      extends: '../../../tsconfig.build.json',
      compilerOptions: { outDir: './dist' },
    }),
  );
  // (nest wants the tsconfig path relative to the workspace.)
  const privateDir = join('node_modules', '.cache', 'vision-bench');
  const relative = join(privateDir, 'tsconfig.build.json');
  // nest-cli.json's assets (views, stylesheets, the CMS-1500 fonts) copied into the private
  // build too: the service refuses to start without its views.
  const cli = JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8')) as {
    compilerOptions: { tsConfigPath?: string; assets?: { outDir?: string }[] };
  };
  cli.compilerOptions.tsConfigPath = relative;
  for (const asset of cli.compilerOptions.assets ?? [])
    asset.outDir = join(privateDir, 'dist', 'src');
  const cliConfig = join(privateDir, 'nest-cli.json');
  await writeFile(join(ROOT, cliConfig), JSON.stringify(cli));
  await run(
    process.execPath,
    [require.resolve('@nestjs/cli/bin/nest.js'), 'build', '-c', cliConfig, '-p', relative],
    {
      cwd: ROOT,
      timeoutMs: 180_000,
    },
  );
  return join(BUILD_DIR, 'dist', 'src');
}

/** Node's flags from `npm start` (e.g. the heap limit), so the bench runs what production runs. */
function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const words = pkg.scripts.start.trim().split(/\s+/);
  return words[0] === 'node' ? words.slice(1).filter((w) => w.startsWith('--')) : [];
}

function serviceEnv(port: number, topology: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...topology,
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    // Loopback only: no TLS for PUBLIC_URL or the bench's webhook receiver (SECURITY.md).
    ALLOW_INSECURE_HTTP: 'true',
    PORT: String(port),
    DATABASE_URL,
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    REDIS_URL,
    REDIS_PREFIX,
    ROLE: 'all',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    RATE_LIMIT_PER_MINUTE: '10000000',
    // The bench sends more batch items and next-eligible questions per key than a client may.
    BATCH_ITEMS_PER_HOUR: '10000000',
    NEXT_ELIGIBLE_COST_PER_MINUTE: '10000000',
    DEMO_SEED: 'false',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    APP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(24).toString('hex'),
    MAIL_DIR: join(TMP, 'mail'),
    ...(process.env.SEARCH_CONCURRENCY
      ? { SEARCH_CONCURRENCY: process.env.SEARCH_CONCURRENCY }
      : {}),
  };
}

async function flushRedis(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${REDIS_PREFIX}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function createAccount(
  dist: string,
  env: NodeJS.ProcessEnv,
  name: string,
  db: Client,
): Promise<Account> {
  const out = await run(
    process.execPath,
    [
      join(dist, 'cli.js'),
      'accounts:create',
      '--name',
      `Bench ${name}`,
      '--email',
      `${name}@bench.test`,
    ],
    // Production refuses a password on the command line: it goes on standard input.
    { env, timeoutMs: 60_000, input: 'bench-password-1\n' },
  );
  const line = out.trim().split('\n').pop() ?? '';
  const created = JSON.parse(line) as { api_key: string; account: { id: string } };
  const { rows: loc } = await db.query<{ id: string }>(
    'SELECT id FROM locations WHERE account_id = $1 AND is_default',
    [created.account.id],
  );
  return { apiKey: created.api_key, accountId: created.account.id, locationId: loc[0].id };
}

// Scenario helpers -----------------------------------------------------------------------------

const uidPaths = (count: number, upTo: number) =>
  Array.from(
    { length: count },
    () => `/api/auth/v2/eligibility/bench-${1 + Math.floor(Math.random() * upTo)}/`,
  );

function getJob(
  url: string,
  apiKey: string,
  paths: string[],
  durationSec: number,
  warmupSec: number,
  connections: number,
  watchPid?: number,
): CannonJob {
  return {
    mode: 'cannon',
    url,
    method: 'GET',
    paths,
    headers: { authorization: `Api ${apiKey}` },
    connections,
    durationSec,
    warmupSec,
    watchPid,
  };
}

const worker = <T>(job: unknown, timeoutMs: number) => runWorker<T>(BENCH, TMP, job, timeoutMs);

const GET_SQL =
  'SELECT status, body_v2 AS body FROM eligibility_requests WHERE account_id = $1 AND uid = $2';

/**
 * One result from rounds of the same load: counts, time and CPU added up; p50/p90/p99 the
 * median of the rounds' (no round's tail decides alone), max the largest.
 */
function mergeRounds(rounds: CannonResult[]): CannonResult {
  if (rounds.length === 1) return rounds[0];
  const sum = (f: (r: CannonResult) => number) => rounds.reduce((a, r) => a + f(r), 0);
  const median = (f: (r: CannonResult) => number) => {
    const v = rounds.map(f).sort((a, b) => a - b);
    return v[Math.floor(v.length / 2)];
  };
  const requests = sum((r) => r.requests);
  const ok = sum((r) => r.ok);
  const durationSec = sum((r) => r.durationSec);
  const statusCodes: Record<string, number> = {};
  for (const r of rounds)
    for (const [code, n] of Object.entries(r.statusCodes))
      statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const cpu = rounds.every((r) => r.cpuMsPerRequest !== undefined)
    ? {
        cpuMsPerRequest: round(
          sum((r) => r.cpuMsPerRequest! * r.requests) / Math.max(1, requests),
          3,
        ),
      }
    : {};
  return {
    mode: 'cannon',
    requests,
    ok,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statusCodes,
    durationSec: round(durationSec),
    rps: round(ok / durationSec),
    latency: {
      p50: median((r) => r.latency.p50),
      p90: median((r) => r.latency.p90),
      p99: median((r) => r.latency.p99),
      max: Math.max(...rounds.map((r) => r.latency.max)),
      mean: round(sum((r) => r.latency.mean * r.requests) / Math.max(1, requests)),
    },
    ...cpu,
  };
}

/**
 * The GET figures against both baselines: the bare one (the targets) and the one that also
 * makes a Redis rate-limit call per request (context: what the service used to pay for it).
 */
/**
 * Where a search's CPU went, over its phase (load and drain): the service, PostgreSQL, Redis and
 * the rest of the bench (the load generator). Their sum, times the searches per second wanted,
 * is what the machine's cores must give.
 */
function splitRow(sc: string, split: CpuSplit, searches: number, bare = false): Row {
  const per = (v: number) => v / Math.max(1, searches);
  const total = split.service + split.postgres + split.redis + split.loadAndBench;
  return row(
    sc,
    bare ? 'CPU per search by process (bare search baseline)' : 'CPU per search by process',
    `${bare ? 'bare baseline' : 'service'} ${ms(per(split.service))}, PostgreSQL ${ms(per(split.postgres))}, Redis ` +
      `${ms(per(split.redis))}, load generator ${ms(per(split.loadAndBench))}; all ${ms(per(total))}`,
    'context',
    null,
  );
}

function getRows(
  sc: string,
  svc: CannonResult,
  base: CannonResult,
  baseRl: CannonResult,
  judged: boolean,
): Row[] {
  const share = svc.rps / base.rps;
  const p99 = svc.latency.p99 / base.latency.p99;
  const bad = svc.non2xx + svc.errors + svc.timeouts;
  return [
    row(
      sc,
      'throughput vs baseline',
      `${perSec(svc.rps)} / ${perSec(base.rps)} = ${pct(share)}`,
      judged ? '≥ 50%' : 'context',
      judged ? share >= 0.5 : null,
    ),
    row(
      sc,
      'throughput vs baseline + Redis call',
      `${perSec(svc.rps)} / ${perSec(baseRl.rps)} = ${pct(svc.rps / baseRl.rps)}`,
      'context',
      null,
    ),
    row(
      sc,
      'p99 latency vs baseline p99',
      `${ms(svc.latency.p99)} / ${ms(base.latency.p99)} = ${ratio(p99)}`,
      judged ? '≤ 2×' : 'context',
      judged ? p99 <= 2 : null,
    ),
    row(
      sc,
      'p99 vs baseline + Redis call p99',
      `${ms(svc.latency.p99)} / ${ms(baseRl.latency.p99)} = ${ratio(svc.latency.p99 / baseRl.latency.p99)}`,
      'context',
      null,
    ),
    row(
      sc,
      'p50 latency (baseline; + Redis call)',
      `${ms(svc.latency.p50)} (${ms(base.latency.p50)}; ${ms(baseRl.latency.p50)})`,
      '',
      null,
    ),
    row(
      sc,
      'CPU per request (baseline; + Redis call)',
      `${ms(svc.cpuMsPerRequest ?? NaN)} (${ms(base.cpuMsPerRequest ?? NaN)}; ${ms(baseRl.cpuMsPerRequest ?? NaN)})`,
      '',
      null,
    ),
    row(sc, 'errors', String(bad), '0', bad === 0),
  ];
}

/** A scenario that throws is an error of the run; the others still run and are reported. */
async function scenario(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    fail(`scenario ${name}`, e instanceof Error ? e.message : String(e));
  }
}

// Main -------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  await mkdir(RESULTS, { recursive: true });
  const load0 = loadavg();
  note(
    `${QUICK ? 'quick' : 'full'} bench on ${cpus().length} cores (load average ${load0.map((l) => l.toFixed(2)).join(' ')})`,
  );

  note('building the production bundle');
  const dist = await build();

  note(`resetting ${DATABASE_URL.replace(/^.*\//, '')} and Redis prefix ${REDIS_PREFIX}`);
  await dropDatabase(DATABASE_URL);
  await flushRedis();

  const nodeArgs = [
    ...startFlags(),
    ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${join(RESULTS, 'profiles')}`] : []),
  ];
  const logPath = join(RESULTS, QUICK ? 'service-quick.log' : 'service.log');
  // Scenarios 1–6: one process doing everything (ROLE=all, WEB_CONCURRENCY=1), as before the
  // cluster; scenario 7 starts `npm start`'s default topology instead.
  const service = await startService({
    dist,
    nodeArgs,
    env: (port) => serviceEnv(port, { WEB_CONCURRENCY: '1' }),
    logPath,
    onUnexpectedExit: (how) => fail('service', `exited during the run (${how}); see ${logPath}`),
  });
  const url = service.url;
  const env = serviceEnv(0, { WEB_CONCURRENCY: '1' });
  let cluster: Server | null = null;
  const rss = new RssMonitor(() => service.pids());
  rss.start();
  note(`service ready on ${url} (pid ${service.child.pid})`);

  const baselineLog = (name: string) => join(RESULTS, `${name}${QUICK ? '-quick' : ''}.log`);
  const baseline = await startBaseline({
    benchDir: BENCH,
    root: ROOT,
    env: { DATABASE_URL, POOL_SIZE: String(POOL_SIZE) },
    logPath: baselineLog('baseline'),
    onUnexpectedExit: (how) => fail('baseline', `exited during the run (${how})`),
  });
  // The same, plus the Redis call per request the service's rate limit made before it leased
  // tokens: the other fair reading.
  const baselineRl = await startBaseline({
    benchDir: BENCH,
    root: ROOT,
    env: {
      DATABASE_URL,
      POOL_SIZE: String(POOL_SIZE),
      RATE_LIMIT_REDIS_URL: REDIS_URL,
      RATE_LIMIT_REDIS_PREFIX: `${REDIS_PREFIX}:baseline`,
    },
    logPath: baselineLog('baseline-redis'),
    onUnexpectedExit: (how) => fail('baseline + Redis', `exited during the run (${how})`),
  });

  const db = await connect(DATABASE_URL);
  const [get, post, e2e, inflight, postCluster, postBare] = await Promise.all(
    ['get', 'post', 'e2e', 'inflight', 'post-cluster', 'post-bare'].map((n) =>
      createAccount(dist, env, n, db),
    ),
  );
  note('accounts created');
  /** Scenario 2's bare search baseline (bench/search-baseline.ts), started once the template is. */
  let searchBaseline: Server | null = null;
  const cpu = new CpuMonitor(
    () => [
      ...service.pids(),
      ...baseline.pids(),
      ...baselineRl.pids(),
      ...(searchBaseline?.pids() ?? []),
      ...(cluster?.pids() ?? []),
    ],
    new URL(DATABASE_URL).pathname.slice(1),
  );
  /** Ends a measured phase: its CPU shares go into the scenario's figures. */
  const measured = (name: string) => cpu.phase(name);

  try {
    // A real completed request, copied by SQL as the stored requests every GET reads.
    const getApi = new Api(url, get.apiKey);
    const { request_uid: templateUid } = await getApi.expect<{ request_uid: string }>(
      201,
      'POST',
      '/api/auth/v1/eligibility/',
      {
        request_uid: 'bench-template',
        insurer_code: 'insurer:demo:vision',
        patient: PATIENT,
      },
    );
    for (let i = 0; ; i++) {
      const body = await getApi.expect<{ status: string }>(
        200,
        'GET',
        `/api/auth/v2/eligibility/${templateUid}/`,
      );
      if (body.status === 'complete') break;
      if (i > 100) throw new Error('the template request did not complete in 10 s');
      await sleep(100);
    }
    getApi.close();
    if (ONLY.has('2'))
      searchBaseline = await startBaseline({
        benchDir: BENCH,
        root: ROOT,
        file: 'search-baseline.ts',
        env: {
          DATABASE_URL,
          POOL_SIZE: String(POOL_SIZE),
          TEMPLATE_ACCOUNT_ID: get.accountId,
          TEMPLATE_UID: templateUid,
          WEBHOOK_SECRET: SECRET,
        },
        logPath: baselineLog('search-baseline'),
        onUnexpectedExit: (how) => fail('search baseline', `exited during the run (${how})`),
      });
    await seedRequests(DATABASE_URL, templateUid, get.accountId, 'bench-', 1, S.s1.stored);
    await db.query('VACUUM ANALYZE eligibility_requests');
    note(`seeded ${S.s1.stored} stored requests`);
    const getPaths = uidPaths(S.s1.paths, S.s1.stored);
    let idleP99 = NaN;
    let singleGet: CannonResult | null = null;
    let baselines: { base: CannonResult; baseRl: CannonResult } | null = null;
    rss.phase();

    // 1. GET at 64 connections, against the baseline -----------------------------------------
    if (ONLY.has('1') || ONLY.has('4') || ONLY.has('5'))
      await scenario('1', async () => {
        const c = S.s1;
        note(
          `scenario 1: GET v2 at 64 connections (service and both baselines, ${c.rounds} rounds)`,
        );
        cpu.phase('before 1');
        // The three take turns, in rounds, so a change in the machine's foreign load during the
        // scenario weighs on all three alike; the first round of each warms it up longer.
        const runs = new Map<Server, CannonResult[]>([
          [service, []],
          [baseline, []],
          [baselineRl, []],
        ]);
        for (let round = 0; round < c.rounds; round++) {
          for (const [target, results] of runs) {
            results.push(
              await worker<CannonResult>(
                getJob(
                  target.url,
                  get.apiKey,
                  getPaths,
                  c.durationSec / c.rounds,
                  round === 0 ? c.warmupSec : 1,
                  c.connections,
                  target.child.pid,
                ),
                120_000,
              ),
            );
          }
        }
        const [svc, base, baseRl] = [...runs.values()].map(mergeRounds);
        checkCannon('1 service', svc);
        checkCannon('1 baseline', base);
        checkCannon('1 baseline + Redis', baseRl);
        baselines = { base, baseRl };
        idleP99 = svc.latency.p99;
        singleGet = svc;
        const plan = await explain(db, GET_SQL, [
          get.accountId,
          `bench-${Math.ceil(S.s1.stored / 2)}`,
        ]);
        figures.s1 = {
          service: svc,
          baseline: base,
          baselineWithRedisRateLimit: baseRl,
          rounds: {
            service: runs.get(service),
            baseline: runs.get(baseline),
            baselineWithRedisRateLimit: runs.get(baselineRl),
          },
          explain: plan,
          rssPeakMb: rss.phase(),
          cpu: measured('1'),
        };
        rows.push(...getRows('1 GET v2, 64 conn', svc, base, baseRl, true));
      });

    // 2. POST at 64 connections, against the bare search baseline ---------------------------
    if (ONLY.has('2'))
      await scenario('2', async () => {
        const c = S.s2;
        note(
          `scenario 2: POST eligibility at 64 connections (service and bare search baseline, ${c.rounds} rounds)`,
        );
        const bare = searchBaseline!;
        type Drain = Awaited<ReturnType<typeof waitAllFinished>>;
        interface Round {
          load: CannonResult;
          drain: Drain;
          /** Searches of this round (stored and finished). */
          searches: number;
          /** From the load's start to its last search's completion (or the load's end). */
          e2eSec: number;
          split: CpuSplit;
          otherCpuPct: number;
        }
        const sides = [
          { name: 'service', target: service, account: post, rounds: [] as Round[], stored: 0 },
          { name: 'bare', target: bare, account: postBare, rounds: [] as Round[], stored: 0 },
        ];
        // The two take turns, as in scenario 1, so the machine's foreign load weighs on both.
        for (let i = 0; i < c.rounds; i++) {
          for (const side of sides) {
            const label = `2${side.name === 'bare' ? ' bare' : ''}${c.rounds > 1 ? ` r${i + 1}` : ''}`;
            cpu.phase(`before ${label}`);
            const ownBefore = treeCpuMs(side.target.child.pid!);
            const r = await worker<CannonResult>(
              {
                mode: 'cannon',
                url: side.target.url,
                method: 'POST',
                paths: ['/api/auth/v1/eligibility/'],
                headers: {
                  authorization: `Api ${side.account.apiKey}`,
                  'content-type': 'application/json',
                },
                body: JSON.stringify({ insurer_code: 'insurer:demo:vision', patient: PATIENT }),
                connections: c.connections,
                durationSec: c.durationSec / c.rounds,
                watchPid: side.target.child.pid!,
              } satisfies CannonJob,
              120_000,
            );
            const loadEnd = Date.now();
            checkCannon(label, r);
            const drain = await waitAllFinished(db, side.account.accountId, loadEnd, 60_000);
            if (drain.pending > 0)
              fail(
                label,
                `${drain.pending} accepted searches still processing 60 s after the load`,
              );
            if (drain.failed > 0) fail(label, `${drain.failed} searches ended in error`);
            const searches = drain.total - side.stored;
            if (searches < r.ok) fail(label, `${r.ok} answered 201 but only ${searches} stored`);
            side.stored = drain.total;
            const phase = measured(label);
            // The process measured is the target alone; the other servers (idle) go with the rest.
            const own = treeCpuMs(side.target.child.pid!) - ownBefore;
            side.rounds.push({
              load: r,
              drain,
              searches,
              e2eSec: r.durationSec + drain.afterLoadSec,
              split: {
                ...phase.splitMs,
                service: own,
                loadAndBench: phase.splitMs.loadAndBench + phase.splitMs.service - own,
              },
              otherCpuPct: phase.otherCpuPct,
            });
          }
        }
        const merged = sides.map(({ rounds }) => {
          const sum = (f: (r: Round) => number) => rounds.reduce((a, r) => a + f(r), 0);
          const searches = sum((r) => r.searches);
          return {
            load: mergeRounds(rounds.map((r) => r.load)),
            searches,
            searchesPerSec:
              searches /
              Math.max(
                0.001,
                sum((r) => r.e2eSec),
              ),
            afterLoadSec: Math.max(...rounds.map((r) => r.drain.afterLoadSec)),
            pending: sum((r) => r.drain.pending),
            split: {
              service: sum((r) => r.split.service),
              postgres: sum((r) => r.split.postgres),
              redis: sum((r) => r.split.redis),
              loadAndBench: sum((r) => r.split.loadAndBench),
            },
            rounds,
          };
        });
        const [svc, base] = merged;
        const r = svc.load;
        const per = (m: (typeof merged)[number], v: number) => v / Math.max(1, m.searches);
        const pgRatio = per(svc, svc.split.postgres) / per(base, base.split.postgres);
        const procRatio = per(svc, svc.split.service) / per(base, base.split.service);
        const spsRatio = svc.searchesPerSec / base.searchesPerSec;
        figures.s2 = {
          load: r,
          searches: svc.searches,
          searchesPerSec: round(svc.searchesPerSec),
          afterLoadSec: svc.afterLoadSec,
          cpu: { splitMs: svc.split },
          rounds: svc.rounds,
          bareSearchBaseline: {
            load: base.load,
            searches: base.searches,
            searchesPerSec: round(base.searchesPerSec),
            afterLoadSec: base.afterLoadSec,
            cpu: { splitMs: base.split },
            rounds: base.rounds,
          },
          rssPeakMb: rss.phase(),
        };
        const sc = '2 POST, 64 conn';
        rows.push(
          splitRow(sc, svc.split, svc.searches),
          splitRow(sc, base.split, base.searches, true),
          row(
            sc,
            'accepted per second',
            `${perSec(r.rps)} (p99 ${ms(r.latency.p99)}; CPU ${ms(r.cpuMsPerRequest ?? NaN)} each)`,
            '≥ 1000/s',
            r.rps >= 1000,
          ),
          row(
            sc,
            'end-to-end searches/s vs bare search baseline',
            `${perSec(svc.searchesPerSec)} / ${perSec(base.searchesPerSec)} = ${ratio(spsRatio)} ` +
              `(accepted ${perSec(r.rps)} / ${perSec(base.load.rps)}; p99 ${ms(r.latency.p99)} / ${ms(base.load.latency.p99)})`,
            '≥ 0.6×',
            spsRatio >= 0.6,
          ),
          row(
            sc,
            'PostgreSQL CPU per search vs bare baseline',
            `${ms(per(svc, svc.split.postgres))} / ${ms(per(base, base.split.postgres))} = ${ratio(pgRatio)}`,
            '≤ 1.5×',
            pgRatio <= 1.5,
          ),
          row(
            sc,
            'service CPU per search vs bare baseline process CPU',
            `${ms(per(svc, svc.split.service))} / ${ms(per(base, base.split.service))} = ${ratio(procRatio)}`,
            '≤ 3×',
            procRatio <= 3,
          ),
          row(
            sc,
            'errors',
            String(r.non2xx + r.errors + r.timeouts),
            '0',
            r.non2xx + r.errors + r.timeouts === 0,
          ),
          row(
            sc,
            'all complete after load end',
            `${secs(svc.afterLoadSec)} (${svc.searches} requests)`,
            '≤ 5 s',
            svc.pending === 0 && svc.afterLoadSec <= 5,
          ),
        );
      });

    // 3. End to end: POST → signed webhook, open loop at a steady rate ------------------------
    if (ONLY.has('3'))
      await scenario('3', async () => {
        const c = S.s3;
        note(`scenario 3: end to end at ${c.rate}/s for ${c.durationSec} s`);
        const receiverPort = await freePort();
        const api = new Api(url, e2e.apiKey);
        await api.expect(201, 'POST', '/api/auth/v1/webhooks/', {
          url: `http://127.0.0.1:${receiverPort}/hook`,
          secret: SECRET,
        });
        api.close();
        cpu.phase('before 3');
        const r = await worker<E2eResult>(
          {
            mode: 'e2e',
            url,
            apiKey: e2e.apiKey,
            ratePerSec: c.rate,
            durationSec: c.durationSec,
            receiverPort,
            secret: SECRET,
            graceSec: c.graceSec,
            uidPrefix: `e2e-${Date.now()}`,
            maxSockets: 64,
          } satisfies E2eJob,
          (c.durationSec + c.graceSec + 60) * 1000,
        );
        if (r.rejected + r.errors > 0)
          fail('3', `${r.rejected} POSTs not accepted, ${r.errors} socket errors`);
        if (r.missing > 0)
          fail(
            '3',
            `${r.missing} of ${r.accepted} webhooks missing ${c.graceSec} s after the last POST`,
          );
        if (r.badSignature > 0) fail('3', `${r.badSignature} webhooks with a wrong X-Signature`);
        if (r.duplicates > 0)
          note(`scenario 3: ${r.duplicates} duplicate deliveries (allowed: at least once)`);
        figures.s3 = { ...r, rssPeakMb: rss.phase(), cpu: measured('3') };
        const sc = `3 e2e ${c.rate}/s × ${c.durationSec} s`;
        rows.push(
          row(sc, 'POST → webhook p50', ms(r.latency.p50), '≤ 50 ms', r.latency.p50 <= 50),
          row(
            sc,
            'POST → webhook p99',
            `${ms(r.latency.p99)} (max ${ms(r.latency.max)})`,
            '≤ 500 ms',
            r.latency.p99 <= 500,
          ),
          row(
            sc,
            'webhooks missing',
            `${r.missing} of ${r.accepted}`,
            '0',
            r.missing === 0 && r.accepted === r.sent,
          ),
        );
      });

    // 4. Many delayed searches in flight, GET latency meanwhile -------------------------------
    if (ONLY.has('4'))
      await scenario('4', async () => {
        const c = S.s4;
        note(`scenario 4: ${c.count} ${c.code} searches in flight`);
        cpu.phase('before 4');
        const firstPost = Date.now();
        const submit = await worker<CannonResult>(
          {
            mode: 'cannon',
            url,
            method: 'POST',
            paths: ['/api/auth/v1/eligibility/'],
            headers: {
              authorization: `Api ${inflight.apiKey}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({
              insurer_code: 'insurer:demo:vision',
              patient: { ...PATIENT, member_id: `M-${c.code}` },
            }),
            connections: 64,
            amount: c.count,
            // Bounded: on a slow machine fewer than `count` get in; the figure says how many.
            durationSec: c.submitSec,
          } satisfies CannonJob,
          (c.submitSec + 60) * 1000,
        );
        const submitEnd = Date.now();
        checkCannon('4 submit', submit);
        // GET load over the window in which the delayed searches come due and complete.
        const window = Math.max(8, Math.ceil((submitEnd - firstPost) / 1000) + 6);
        await sleep(Math.max(0, firstPost + (c.delaySec - 1) * 1000 - Date.now()));
        const busy = await worker<CannonResult>(
          getJob(url, get.apiKey, getPaths, window, 0, S.s1.connections),
          (window + 60) * 1000,
        );
        checkCannon('4 GET', busy);
        const done = await waitAllFinished(
          db,
          inflight.accountId,
          submitEnd,
          (c.delaySec + c.graceSec) * 1000,
        );
        if (done.pending > 0)
          fail(
            '4',
            `${done.pending} searches still processing ${c.delaySec + c.graceSec} s after submission`,
          );
        if (done.failed > 0) fail('4', `${done.failed} searches ended in error`);
        const stats = (
          await db.query<{ slowest: number; p50: number; wall: number; submit: number }>(
            `SELECT extract(epoch FROM max(completed_at - created_at))::float8 AS slowest,
                  (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM completed_at - created_at)))::float8 AS p50,
                  extract(epoch FROM max(completed_at) - min(created_at))::float8 AS wall,
                  extract(epoch FROM max(created_at) - min(created_at))::float8 AS submit
           FROM eligibility_requests WHERE account_id = $1`,
            [inflight.accountId],
          )
        ).rows[0];
        const slow = busy.latency.p99 / idleP99;
        figures.s4 = {
          submit,
          getDuringCompletions: busy,
          idleP99,
          completion: stats,
          drain: done,
          rssPeakMb: rss.phase(),
          cpu: measured('4'),
        };
        const sc = `4 ${c.count} × ${c.code}`;
        rows.push(
          row(
            sc,
            'searches in flight at once',
            `${submit.ok} of ${c.count} (${perSec(submit.rps)} submitted)`,
            String(c.count),
            submit.ok >= c.count,
          ),
          row(
            sc,
            'slowest POST → complete',
            `${secs(stats.slowest)} (median ${secs(stats.p50)}; submitted in ${secs(stats.submit)})`,
            `≤ ${c.limitSec} s`,
            done.pending === 0 && stats.slowest <= c.limitSec,
          ),
          row(
            sc,
            'GET p99 meanwhile vs idle',
            `${ms(busy.latency.p99)} / ${ms(idleP99)} = ${ratio(slow)}`,
            '≤ 2×',
            slow <= 2,
          ),
        );
      });

    // 5. Growth: a million stored requests; half a million patients ---------------------------
    if (ONLY.has('5'))
      await scenario('5', async () => {
        const c = S.s5;
        const before = await explain(db, GET_SQL, [
          get.accountId,
          `bench-${Math.ceil(S.s1.stored / 2)}`,
        ]);
        // Control: scenario 1 again now, after the load of scenarios 2–4, so the growth figure
        // can be told from the service's own state.
        const control = await worker<CannonResult>(
          getJob(url, get.apiKey, getPaths, S.s1.durationSec, S.s1.warmupSec, S.s1.connections),
          120_000,
        );
        checkCannon('5 GET control', control);
        measured('5 control');
        const { rows: countRows } = await db.query<{ n: string }>(
          'SELECT count(*) AS n FROM eligibility_requests',
        );
        const have = Number(countRows[0].n);
        const add = Math.max(0, c.requests - have);
        note(`scenario 5: seeding ${add} more stored requests (to ${c.requests})`);
        let t = Date.now();
        await seedRequests(
          DATABASE_URL,
          templateUid,
          get.accountId,
          'bench-',
          S.s1.stored + 1,
          S.s1.stored + add,
        );
        const seedSec = (Date.now() - t) / 1000;
        t = Date.now();
        // Settle like a database that grew over months: statistics current, nothing left to flush.
        await db.query('VACUUM ANALYZE eligibility_requests');
        await db.query('CHECKPOINT');
        note(`seeded in ${secs(seedSec)}, vacuumed in ${secs((Date.now() - t) / 1000)}`);
        const grown = S.s1.stored + add;
        cpu.phase('seeding requests');
        // Scenario 1 again, the same requests read, with the table a hundred times larger: what
        // grows is the indexes and the heap around them.
        const big = await worker<CannonResult>(
          getJob(url, get.apiKey, getPaths, S.s1.durationSec, S.s1.warmupSec, S.s1.connections),
          120_000,
        );
        checkCannon('5 GET', big);
        const growth = big.latency.p99 / idleP99;
        const cpuGrown = measured('5 requests');
        // Context: reads spread over the whole table, mostly outside shared_buffers.
        const cold = await worker<CannonResult>(
          getJob(url, get.apiKey, uidPaths(S.s1.paths, grown), c.durationSec, 1, S.s1.connections),
          120_000,
        );
        checkCannon('5 GET spread', cold);
        const after = await explain(db, GET_SQL, [get.accountId, `bench-${grown - 7}`]);
        measured('5 requests spread');

        note(`scenario 5: seeding ${c.patients} patients`);
        t = Date.now();
        await seedPatients(DATABASE_URL, get.accountId, get.locationId, c.patients);
        await db.query('VACUUM ANALYZE patients');
        const patientSeedSec = (Date.now() - t) / 1000;
        const api = new Api(url, get.apiKey);
        t = Date.now();
        let cursor: string | null = null;
        for (let page = 1; page < c.pageDepth; page++) {
          const q: string = `/api/auth/v1/patients/?limit=50${cursor ? `&cursor=${cursor}` : ''}`;
          const body: { result: unknown[]; next_cursor: string | null } = await api.expect(
            200,
            'GET',
            q,
          );
          if (!body.next_cursor || body.result.length !== 50)
            throw new Error(`page ${page} ended the list early`);
          cursor = body.next_cursor;
        }
        const walkSec = (Date.now() - t) / 1000;
        api.close();
        cpu.phase('seeding patients');
        const pageJob = (path: string) => ({
          ...getJob(url, get.apiKey, [path], c.durationSec, 1, c.connections),
        });
        const first = await worker<CannonResult>(
          pageJob('/api/auth/v1/patients/?limit=50'),
          60_000,
        );
        checkCannon('5 page 1', first);
        const deep = await worker<CannonResult>(
          pageJob(`/api/auth/v1/patients/?limit=50&cursor=${cursor}`),
          60_000,
        );
        checkCannon(`5 page ${c.pageDepth}`, deep);
        const [ts, id] = Buffer.from(cursor!, 'base64url').toString('utf8').split('|');
        const pageSql = (keyset: boolean) =>
          `SELECT * FROM patients WHERE account_id = $1${keyset ? ' AND (created_at, id) < ($2::timestamptz, $3::uuid)' : ''} ORDER BY created_at DESC, id DESC LIMIT 51`;
        const plan1 = await explain(db, pageSql(false), [get.accountId]);
        const planDeep = await explain(db, pageSql(true), [get.accountId, ts, id]);
        const pageCost = deep.latency.mean / first.latency.mean;
        const cpuPages = measured('5 patients');
        figures.s5 = {
          requests: {
            stored: have + add,
            seedSec,
            get: big,
            control,
            getSpread: cold,
            idleP99,
            explainAt10k: before,
            explainGrown: after,
            cpu: cpuGrown,
          },
          patients: {
            count: c.patients,
            seedSec: patientSeedSec,
            walkSec,
            page1: first,
            deep,
            explainPage1: plan1,
            explainDeep: planDeep,
            cpu: cpuPages,
          },
          rssPeakMb: rss.phase(),
        };
        rows.push(
          row(
            `5 ${(have + add).toLocaleString('en')} requests`,
            'GET p99 vs at 10k (scenario 1)',
            `${ms(big.latency.p99)} / ${ms(idleP99)} = ${ratio(growth)}`,
            '≤ 1.3×',
            growth <= 1.3,
          ),
          row(
            `5 ${(have + add).toLocaleString('en')} requests`,
            'GET p99 vs just before seeding',
            `${ms(big.latency.p99)} / ${ms(control.latency.p99)} = ${ratio(big.latency.p99 / control.latency.p99)}`,
            'context',
            null,
          ),
          row(
            `5 ${(have + add).toLocaleString('en')} requests`,
            'GET p99, reads spread over all rows',
            `${ms(cold.latency.p99)} (p50 ${ms(cold.latency.p50)}; ${perSec(cold.rps)})`,
            'context',
            null,
          ),
          row(
            `5 ${c.patients.toLocaleString('en')} patients`,
            `page ${c.pageDepth} vs page 1 (mean)`,
            `${ms(deep.latency.mean)} / ${ms(first.latency.mean)} = ${ratio(pageCost)} (SQL ${ms(planDeep.executionMs)} / ${ms(plan1.executionMs)})`,
            '≤ 1.3×',
            pageCost <= 1.3,
          ),
        );
      });

    // 7. A batch of sandbox checks, single checks meanwhile (bench/batch.ts) ---------------------
    if (ONLY.has('7'))
      await scenario('7', async () => {
        note('scenario 7: a batch, single checks meanwhile');
        const batchApi = new Api(url, (await createAccount(dist, env, 'batch', db)).apiKey);
        const f = await runBatchScenario(batchApi, QUICK ? 1_000 : 10_000);
        batchApi.close();
        figures.s7 = { ...f, rssPeakMb: rss.phase(), cpu: measured('7') };
        rows.push(...batchRows(f));
      });

    // 8. Appointment checks all due at once, single searches at a steady rate (bench/checks.ts) --
    if (ONLY.has('8'))
      await scenario('8', async () => {
        note(`scenario 8: ${S.s8.checks} appointment checks due at once, singles meanwhile`);
        const account = await createAccount(dist, env, 'checks', db);
        // Room for every single in flight at once: the client must not queue them.
        const api = new Api(url, account.apiKey, { maxSockets: 64, timeoutMs: 60_000 });
        cpu.phase('before 8');
        const f = await runChecksScenario(api, db, account.accountId, S.s8);
        api.close();
        for (const problem of f.problems) fail('8', problem);
        figures.s8 = { ...f, rssPeakMb: rss.phase(), cpu: measured('8') };
        rows.push(...checksRows(f));
      });

    // 9. A sync of a full list against a bare INSERT ... ON CONFLICT of its rows (bench/sync.ts) --
    if (ONLY.has('9'))
      await scenario('9', async () => {
        note(
          `scenario 9: sync of ${S.s9.items} appointments (${S.s9.rounds} rounds with the bare statement)`,
        );
        const [own, bareAccount] = await Promise.all(
          ['sync', 'sync-bare'].map((n) => createAccount(dist, env, n, db)),
        );
        const side = (a: Account) => ({
          api: new Api(url, a.apiKey, { timeoutMs: 120_000 }),
          accountId: a.accountId,
          locationId: a.locationId,
        });
        const [service, bare] = [side(own), side(bareAccount)];
        cpu.phase('before 9');
        try {
          const f = await runSyncScenario(db, service, bare, S.s9);
          for (const problem of f.problems) fail('9', problem);
          figures.s9 = { ...f, rssPeakMb: rss.phase(), cpu: measured('9') };
          rows.push(...syncRows(f));
        } finally {
          service.api.close();
          bare.api.close();
        }
      });

    // 10. Universal Search with wait_for electronic, and a reused answer (bench/universal.ts) ---
    if (ONLY.has('10'))
      await scenario('10', async () => {
        note(
          `scenario 10: Universal Search and reused answers against the sandbox (${S.s10.rounds} each)`,
        );
        const account = await createAccount(dist, env, 'universal', db);
        const api = new Api(url, account.apiKey);
        cpu.phase('before 10');
        try {
          const f = await runUniversalScenario(api, S.s10);
          for (const problem of f.problems) fail('10', problem);
          figures.s10 = { ...f, rssPeakMb: rss.phase(), cpu: measured('10') };
          rows.push(...universalRows(f));
        } finally {
          api.close();
        }
      });

    // 11. What the instruments cost: metrics on, tracing on, both off (bench/instruments.ts) ----
    if (ONLY.has('11'))
      await scenario('11', async () => {
        const c = S.s11;
        note(`scenario 11: metrics and tracing against both off (${c.rounds} rounds)`);
        const account = await createAccount(dist, env, 'instruments', db);
        cpu.phase('before 11');
        const f = await runInstrumentsScenario(
          {
            start: (variant, extra) => {
              const log = join(RESULTS, `service-11-${variant}${QUICK ? '-quick' : ''}.log`);
              return startService({
                dist,
                nodeArgs,
                env: (port) => serviceEnv(port, { WEB_CONCURRENCY: '1', ...extra }),
                logPath: log,
                onUnexpectedExit: (how) =>
                  fail(`11 ${variant}`, `exited during the run (${how}); see ${log}`),
              });
            },
            get: async (target, sec, label) => {
              const r = await worker<CannonResult>(
                getJob(target, get.apiKey, getPaths, sec, 1, c.connections),
                120_000,
              );
              checkCannon(label, r);
              return r;
            },
            post: async (target, sec, label) => {
              const r = await worker<CannonResult>(
                {
                  mode: 'cannon',
                  url: target,
                  method: 'POST',
                  paths: ['/api/auth/v1/eligibility/'],
                  headers: {
                    authorization: `Api ${account.apiKey}`,
                    'content-type': 'application/json',
                  },
                  body: JSON.stringify({ insurer_code: 'insurer:demo:vision', patient: PATIENT }),
                  connections: c.connections,
                  durationSec: sec,
                } satisfies CannonJob,
                120_000,
              );
              checkCannon(label, r);
              const drain = await waitAllFinished(db, account.accountId, Date.now(), 60_000);
              if (drain.pending > 0)
                fail(
                  label,
                  `${drain.pending} accepted searches still processing 60 s after the load`,
                );
              if (drain.failed > 0) fail(label, `${drain.failed} searches ended in error`);
              return r;
            },
            merge: mergeRounds,
            freePort,
          },
          c,
        );
        for (const problem of f.problems) fail('11', problem);
        figures.s11 = { ...f, cpu: measured('11') };
        rows.push(...instrumentsRows(f));
      });

    rows.push(
      row(
        '6 memory',
        'service RSS peak (all scenarios)',
        `${rss.peakMb.toFixed(0)} MB`,
        '< 300 MB',
        rss.peakMb < 300,
      ),
    );
    rss.stop();

    // 7. `npm start`'s default topology: a cluster of processes serving the API and the queues --
    if (ONLY.has('7'))
      await scenario('7', async () => {
        const c = S.s7;
        // One process per core: what the default was before it left a core to a local
        // PostgreSQL (src/platform/config/database.ts defaultProcessCount); this scenario measures that
        // choice against the single process of scenarios 1-6.
        const apiProcesses = availableParallelism();
        note(`scenario 7: the cluster (${apiProcesses} processes, each API and queue worker)`);
        // The single process goes first: two services on one small machine would share it.
        await service.stop(10_000);
        const clusterLog = join(RESULTS, QUICK ? 'cluster-quick.log' : 'cluster.log');
        cluster = await startService({
          dist,
          nodeArgs,
          env: (port) => serviceEnv(port, { WEB_CONCURRENCY: String(apiProcesses) }),
          logPath: clusterLog,
          onUnexpectedExit: (how) =>
            fail('cluster', `exited during the run (${how}); see ${clusterLog}`),
        });
        const running = cluster;
        await waitForCluster(running, apiProcesses);
        const clusterRss = new RssMonitor(() => running.pids());
        clusterRss.start();
        note(`cluster ready on ${running.url} (${running.pids().length} processes)`);
        try {
          cpu.phase('before 7');
          const svc = await worker<CannonResult>(
            getJob(
              running.url,
              get.apiKey,
              getPaths,
              c.durationSec,
              c.warmupSec,
              c.connections,
              running.child.pid,
            ),
            120_000,
          );
          checkCannon('7 GET', svc);
          let base = baselines;
          if (!base) {
            const load = (target: Server) =>
              worker<CannonResult>(
                getJob(target.url, get.apiKey, getPaths, c.durationSec, c.warmupSec, 64),
                120_000,
              );
            base = { base: await load(baseline), baseRl: await load(baselineRl) };
          }
          const cpuGet = measured('7 GET');
          const r = await worker<CannonResult>(
            {
              mode: 'cannon',
              url: running.url,
              method: 'POST',
              paths: ['/api/auth/v1/eligibility/'],
              headers: {
                authorization: `Api ${postCluster.apiKey}`,
                'content-type': 'application/json',
              },
              body: JSON.stringify({ insurer_code: 'insurer:demo:vision', patient: PATIENT }),
              connections: c.connections,
              durationSec: c.postSec,
              watchPid: running.child.pid!,
            } satisfies CannonJob,
            120_000,
          );
          const loadEnd = Date.now();
          checkCannon('7 POST', r);
          const drain = await waitAllFinished(db, postCluster.accountId, loadEnd, 60_000);
          if (drain.pending > 0)
            fail('7', `${drain.pending} accepted searches still processing 60 s after the load`);
          if (drain.failed > 0) fail('7', `${drain.failed} searches ended in error`);
          if (drain.total < r.ok) fail('7', `${r.ok} answered 201 but only ${drain.total} stored`);
          const cpuPost = measured('7 POST');
          figures.s7 = {
            apiProcesses,
            get: svc,
            post: r,
            drain,
            rssPeakMbPerProcess: clusterRss.peakMb,
            cpu: { get: cpuGet, post: cpuPost },
          };
          const sc = `7 cluster, ${apiProcesses} × (API + worker)`;
          rows.push(
            ...getRows(sc, svc, base.base, base.baseRl, false),
            row(
              sc,
              'GET throughput vs single process',
              singleGet
                ? `${perSec(svc.rps)} / ${perSec(singleGet.rps)} = ${ratio(svc.rps / singleGet.rps)}`
                : 'n/a',
              'context',
              null,
            ),
            row(
              sc,
              'POST accepted per second',
              `${perSec(r.rps)} (p99 ${ms(r.latency.p99)}; CPU ${ms(r.cpuMsPerRequest ?? NaN)} each)`,
              '≥ 1000/s',
              r.rps >= 1000,
            ),
            splitRow(sc, cpuPost.splitMs, drain.total),
            row(
              sc,
              'POST all complete after load end',
              `${secs(drain.afterLoadSec)} (${drain.total} requests)`,
              '≤ 5 s',
              drain.pending === 0 && drain.afterLoadSec <= 5,
            ),
            row(
              sc,
              'RSS peak of any one process',
              `${clusterRss.peakMb.toFixed(0)} MB`,
              '< 300 MB',
              clusterRss.peakMb < 300,
            ),
          );
        } finally {
          clusterRss.stop();
        }
      });

    const loaded = cpu.phases.filter(
      (p) => !p.name.startsWith('before') && !p.name.startsWith('seeding'),
    );
    figures.cpuPhases = cpu.phases;
    rows.push(
      row(
        'machine',
        'CPU share used by other processes',
        loaded.map((p) => `${p.name}: ${p.otherCpuPct}%`).join(', ') || 'n/a',
        'context',
        null,
      ),
    );
  } finally {
    rss.stop();
    await db.end().catch(() => undefined);
    await baseline.stop();
    await baselineRl.stop();
    await searchBaseline?.stop();
    await service.stop(10_000);
    // A cluster stops all its processes on SIGTERM; it gets the supervisor's whole grace time.
    await (cluster as Server | null)?.stop(35_000);
  }

  const durationSec = round((Date.now() - started) / 1000, 1);
  const report = table(rows);
  process.stdout.write(`\n${report}\n\n`);
  const result = {
    mode: QUICK ? 'quick' : 'full',
    startedAt: new Date(started).toISOString(),
    durationSec,
    machine: {
      cpus: cpus().length,
      loadAverageAtStart: load0,
      loadAverageAtEnd: loadavg(),
      node: process.version,
    },
    settings: { ...S, poolSize: POOL_SIZE },
    rows,
    errors,
    figures,
  };
  const out = join(RESULTS, QUICK ? 'latest-quick.json' : 'latest.json');
  await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
  note(
    `${errors.length === 0 ? 'no errors' : `${errors.length} error(s)`}; results in ${out}; ${secs(durationSec)} in all`,
  );
}

/** Until the cluster's processes (supervisor's children) are all up, bounded. */
async function waitForCluster(cluster: Server, processes: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (cluster.pids().length < processes + 1) {
    if (!cluster.alive() || Date.now() > deadline)
      throw new Error(`the cluster has ${cluster.pids().length - 1} of ${processes} processes`);
    await sleep(200);
  }
}

/** Polls until no request of the account is processing; times the last completion after `since`. */
async function waitAllFinished(
  db: Client,
  accountId: string,
  since: number,
  timeoutMs: number,
): Promise<{
  total: number;
  pending: number;
  failed: number;
  afterLoadSec: number;
  lastCompletedAt: string | null;
}> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows: r } = await db.query<{
      total: string;
      pending: string;
      failed: string;
      last: Date | null;
    }>(
      `SELECT count(*) AS total, count(*) FILTER (WHERE status = 'processing') AS pending,
              count(*) FILTER (WHERE status = 'error') AS failed, max(completed_at) AS last
       FROM eligibility_requests WHERE account_id = $1`,
      [accountId],
    );
    const pending = Number(r[0].pending);
    if (pending === 0 || Date.now() > deadline) {
      const last = r[0].last;
      return {
        total: Number(r[0].total),
        pending,
        failed: Number(r[0].failed),
        afterLoadSec: last ? round(Math.max(0, last.getTime() - since) / 1000, 2) : 0,
        lastCompletedAt: last ? last.toISOString() : null,
      };
    }
    await sleep(100);
  }
}

let exiting = false;
async function shutdown(code: number): Promise<void> {
  if (exiting) return;
  exiting = true;
  killAllNow();
  await flushRedis().catch(() => undefined);
  if (!KEEP) await dropDatabase(DATABASE_URL).catch(() => undefined);
  await rm(TMP, { recursive: true, force: true }).catch(() => undefined);
  process.exit(code);
}

process.on('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    process.stderr.write(`\n${signal}: stopping the bench\n`);
    void shutdown(130);
  });
}

main().then(
  () => shutdown(errors.length > 0 ? 1 : 0),
  (e: unknown) => {
    fail('bench', e instanceof Error ? (e.stack ?? e.message) : String(e));
    void shutdown(1);
  },
);
