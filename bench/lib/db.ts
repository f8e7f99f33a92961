import { Client } from 'pg';

/** The bench's own database; refusing any other name keeps `vision` and `vision_test_*` safe. */
export function assertBenchDatabase(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^vision_bench(_[a-z0-9_]+)?$/.test(name)) {
    throw new Error(`refusing to use database "${name}": the bench only drops vision_bench*`);
  }
  return name;
}

export async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url, application_name: 'vision-bench' });
  await client.connect();
  return client;
}

/** Drops the bench database (the service creates it again, with its migrations, at start). */
export async function dropDatabase(url: string): Promise<void> {
  const name = assertBenchDatabase(url);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = await connect(admin.toString());
  try {
    await client.query('DROP DATABASE IF EXISTS ' + quoteIdent(name) + ' WITH (FORCE)');
  } finally {
    await client.end();
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Bulk loads run with `session_replication_role = replica`: foreign-key triggers are skipped
 * (each seeded row points at the one account and location the bench created, so nothing is
 * left to check), which makes a million-row INSERT ... SELECT several times faster. Commits are
 * asynchronous and new TOAST values use lz4, for the same reason. Only this session is affected.
 */
async function bulkSession(client: Client): Promise<void> {
  // Needs a superuser (the default local setup); without one the load just runs the checks.
  await client.query(`SET session_replication_role = replica`).catch(() => undefined);
  await client.query(`SET synchronous_commit = off`);
  await client.query(`SET default_toast_compression = 'lz4'`).catch(() => undefined);
}

/**
 * Copies one completed request (the template, a real search answered by the sandbox) as rows
 * `${prefix}${from}` .. `${prefix}${to}` of the same account, each with its own uid inside both
 * stored bodies and its own creation time. Split in `parallel` ranges on as many connections.
 */
export async function seedRequests(
  url: string,
  templateUid: string,
  accountId: string,
  prefix: string,
  from: number,
  to: number,
  parallel = 2,
): Promise<void> {
  const size = Math.ceil((to - from + 1) / parallel);
  const ranges: [number, number][] = [];
  for (let lo = from; lo <= to; lo += size) ranges.push([lo, Math.min(to, lo + size - 1)]);
  await Promise.all(
    ranges.map(async ([lo, hi]) => {
      const client = await connect(url);
      try {
        await bulkSession(client);
        // Batches keep each transaction (and its WAL) bounded.
        for (let start = lo; start <= hi; start += 50_000) {
          const end = Math.min(hi, start + 49_999);
          await client.query(
            `INSERT INTO eligibility_requests
               (account_id, uid, kind, location_id, insurer_codes, query, status, attempts, job_due_at,
                body_v1, body_v2, created_at, completed_at)
             SELECT r.account_id, $3 || g, 'search', r.location_id, r.insurer_codes, r.query, 'complete', 1,
                    r.job_due_at, replace(r.body_v1, r.uid, $3 || g), replace(r.body_v2, r.uid, $3 || g),
                    r.created_at - make_interval(secs => g), r.created_at - make_interval(secs => g - 1)
             FROM eligibility_requests r, generate_series($4::int, $5::int) g
             WHERE r.account_id = $1 AND r.uid = $2`,
            [accountId, templateUid, prefix, start, end],
          );
        }
      } finally {
        await client.end();
      }
    }),
  );
}

const FIRST_NAMES = [
  'olivia',
  'liam',
  'emma',
  'noah',
  'ava',
  'mateo',
  'sophia',
  'lucas',
  'isabella',
  'elijah',
  'mia',
  'james',
  'amelia',
  'benjamin',
  'harper',
  'daniel',
  'evelyn',
  'henry',
  'camila',
  'jack',
];
const LAST_NAMES = [
  'garcia',
  'smith',
  'johnson',
  'williams',
  'brown',
  'jones',
  'miller',
  'davis',
  'rodriguez',
  'martinez',
  'hernandez',
  'lopez',
  'gonzalez',
  'wilson',
  'anderson',
  'thomas',
  'taylor',
  'moore',
  'jackson',
  'martin',
  'lee',
  'perez',
  'thompson',
  'white',
  'harris',
  'sanchez',
  'clark',
  'lewis',
];

/**
 * `count` patients in the account's default location. Codes are PAT + 8 Crockford characters
 * from a bijection of the row number (so unique, and not in creation order, like real codes);
 * names are lower case; one patient a second going back in time, with milliseconds.
 */
export async function seedPatients(
  url: string,
  accountId: string,
  locationId: string,
  count: number,
  parallel = 2,
): Promise<void> {
  const size = Math.ceil(count / parallel);
  const ranges: [number, number][] = [];
  for (let lo = 1; lo <= count; lo += size) ranges.push([lo, Math.min(count, lo + size - 1)]);
  await Promise.all(
    ranges.map(async ([lo, hi]) => {
      const client = await connect(url);
      try {
        await bulkSession(client);
        for (let start = lo; start <= hi; start += 100_000) {
          const end = Math.min(hi, start + 99_999);
          await client.query(
            `INSERT INTO patients (account_id, location_id, code, first_name, last_name, dob, sex, created_at)
             SELECT $1, $2,
                    'PAT' || (SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((x >> (5 * i)) & 31)::int + 1, 1), '' ORDER BY i DESC)
                              FROM generate_series(0, 7) i),
                    ($3::text[])[1 + g % cardinality($3::text[])],
                    ($4::text[])[1 + (g / 7) % cardinality($4::text[])],
                    date '1940-01-01' + (g * 37 % 25000)::int,
                    CASE g % 3 WHEN 0 THEN 'female' WHEN 1 THEN 'male' ELSE 'unknown' END,
                    date_trunc('milliseconds', now() - make_interval(secs => g + (g % 1000) / 1000.0))
             FROM generate_series($5::bigint, $6::bigint) g,
                  LATERAL (SELECT (g * 786431) % 1099511627776 AS x) c`,
            [accountId, locationId, FIRST_NAMES, LAST_NAMES, start, end],
          );
        }
      } finally {
        await client.end();
      }
    }),
  );
}

/** EXPLAIN (ANALYZE, BUFFERS) of a query: execution time and the plan's text. */
export async function explain(
  client: Client,
  sql: string,
  params: unknown[],
): Promise<{ executionMs: number; plan: string[] }> {
  const { rows } = await client.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
    params,
  );
  const plan = rows.map((r) => r['QUERY PLAN']);
  const line = plan.find((l) => l.startsWith('Execution Time'));
  return { executionMs: Number(/([\d.]+) ms/.exec(line ?? '')?.[1] ?? NaN), plan };
}
