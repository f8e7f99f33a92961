import type { QueryRunner } from 'typeorm';
import { migration } from './migration';

/** The columns that hold rendered bodies and insurer exchanges (kilobytes each, TOASTed). */
const COLUMNS: [table: string, column: string][] = [
  ['eligibility_requests', 'body_v1'],
  ['eligibility_requests', 'body_v2'],
  ['eligibility_persons', 'plan'],
  ['eligibility_batches', 'body'],
  ['webhook_deliveries', 'body'],
  ['insurer_exchanges', 'request'],
  ['insurer_exchanges', 'response'],
];

/**
 * New values of the large columns are compressed with lz4 instead of pglz: every search writes
 * two rendered bodies (10 KB and more) and a body per webhook, and every read decompresses one;
 * lz4 does both in a fraction of pglz's CPU (bench/README.md). Values already stored stay as they
 * are (both are read alike). A server built without lz4 keeps pglz.
 */
export const Lz4Bodies1795341000000 = migration('Lz4Bodies1795341000000', {
  up: (q) => setCompression(q, 'lz4'),
  down: (q) => setCompression(q, 'default'),
});

async function setCompression(q: QueryRunner, method: 'lz4' | 'default'): Promise<void> {
  const [{ supported }] = (await q.query(
    `SELECT 'lz4' = ANY(enumvals) AS supported FROM pg_settings WHERE name = 'default_toast_compression'`,
  )) as { supported: boolean }[];
  if (!supported) return;
  for (const [table, column] of COLUMNS)
    await q.query(`ALTER TABLE ${table} ALTER COLUMN ${column} SET COMPRESSION ${method}`);
}
