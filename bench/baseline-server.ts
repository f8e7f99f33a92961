/**
 * The bare baseline: what this machine can do for `GET /api/auth/v2/eligibility/{uid}/` with no
 * framework at all. A plain node:http server and a pg pool doing the same two queries as the
 * service (API key by SHA-256, then the stored body by account and uid) and answering the same
 * bytes. Every figure of scenario 1 is reported as a ratio to this.
 *
 * Env: PORT (0 = any; the chosen port is printed as `{"event":"ready","port":N}`), DATABASE_URL,
 * POOL_SIZE.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';

const PATH = /^\/api\/auth\/v2\/eligibility\/([^/?]+)\/?(?:\?.*)?$/;

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_SIZE ?? 20),
  application_name: 'vision-bench-baseline',
});

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
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ event: 'ready', port })}\n`);
});

const stop = () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
