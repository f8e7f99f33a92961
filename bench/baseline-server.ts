/**
 * The bare baseline: what this machine can do for `GET /api/auth/v2/eligibility/{uid}/` with no
 * framework at all. A plain node:http server and a pg pool doing the same two queries as the
 * service (API key by SHA-256, then the stored body by account and uid) and answering the same
 * bytes. Every figure of scenario 1 is reported as a ratio to this.
 *
 * With RATE_LIMIT_REDIS_URL it also makes the Redis call the service made per request for its
 * rate limit until it leased tokens instead (@nest-lab/throttler-storage-redis: one EVAL of this
 * script per request, between the two queries): the second, "fair" reading of the baseline.
 *
 * Env: PORT (0 = any; the chosen port is printed as `{"event":"ready","port":N}`), DATABASE_URL,
 * POOL_SIZE, RATE_LIMIT_REDIS_URL and RATE_LIMIT_REDIS_PREFIX (optional).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { Pool } from 'pg';

const PATH = /^\/api\/auth\/v2\/eligibility\/([^/?]+)\/?(?:\?.*)?$/;

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_SIZE ?? 20),
  application_name: 'vision-bench-baseline',
  // Two baselines run beside the service: idle, they give their connections back at once, so
  // the scenarios after theirs do not meet PostgreSQL's max_connections.
  idleTimeoutMillis: 1_000,
});

const THROTTLE_SCRIPT = `
local hitKey = KEYS[1]
local blockKey = KEYS[2]
local ttl = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local blockDuration = tonumber(ARGV[4])
local totalHits = redis.call('INCR', hitKey)
local timeToExpire = redis.call('PTTL', hitKey)
if timeToExpire <= 0 then
  redis.call('PEXPIRE', hitKey, ttl)
  timeToExpire = ttl
end
local isBlocked = redis.call('GET', blockKey)
local timeToBlockExpire = 0
if isBlocked then
  timeToBlockExpire = redis.call('PTTL', blockKey)
elseif totalHits > limit then
  redis.call('SET', blockKey, 1, 'PX', blockDuration)
  isBlocked = '1'
  timeToBlockExpire = blockDuration
end
if isBlocked and timeToBlockExpire <= 0 then
  redis.call('DEL', blockKey)
  redis.call('SET', hitKey, 1, 'PX', ttl)
  totalHits = 1
  timeToExpire = ttl
  isBlocked = false
end
return { totalHits, timeToExpire, isBlocked and 1 or 0, timeToBlockExpire }`
  .replace(/^\s+/gm, '')
  .trim();

const redis = process.env.RATE_LIMIT_REDIS_URL
  ? new Redis(process.env.RATE_LIMIT_REDIS_URL, {
      keyPrefix: `${process.env.RATE_LIMIT_REDIS_PREFIX ?? 'vision_bench:baseline'}:`,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    })
  : null;

async function rateLimit(keyId: string): Promise<void> {
  if (!redis) return;
  const key = `default:${keyId}`;
  await redis.call(
    'eval',
    THROTTLE_SCRIPT,
    2,
    `{${key}:default}:hits`,
    `{${key}:default}:blocked`,
    'default',
    60_000,
    10_000_000,
    60_000,
  );
}

function send(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const match = req.method === 'GET' ? PATH.exec(req.url ?? '') : null;
  if (!match) return send(res, 404, '{"detail":"Not found."}');
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Api '))
    return send(res, 401, '{"detail":"Invalid authentication token."}');
  const hash = createHash('sha256').update(header.slice(4).trim(), 'utf8').digest('hex');
  const keys = await pool.query<{ id: string; account_id: string }>(
    'SELECT id, account_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
    [hash],
  );
  if (keys.rows.length === 0) return send(res, 401, '{"detail":"Invalid authentication token."}');
  await rateLimit(keys.rows[0].id);
  const uid = decodeURIComponent(match[1]);
  const rows = await pool.query<{ status: string; body_v2: string | null }>(
    'SELECT status, body_v2 FROM eligibility_requests WHERE account_id = $1 AND uid = $2',
    [keys.rows[0].account_id, uid],
  );
  if (rows.rows.length === 0)
    return send(res, 404, JSON.stringify({ detail: `Eligibility request ${uid} not found.` }));
  const row = rows.rows[0];
  send(res, 200, row.body_v2 ?? JSON.stringify({ request_uid: uid, status: row.status }));
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((e: Error) => {
    process.stderr.write(`baseline: ${e.message}\n`);
    if (!res.headersSent) send(res, 500, '{"detail":"Internal server error."}');
  });
});
server.keepAliveTimeout = 65_000;
const listen = () =>
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ event: 'ready', port })}\n`);
  });
if (redis) redis.once('ready', listen);
else listen();

const stop = () => {
  server.close();
  redis?.disconnect();
  void pool.end().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
