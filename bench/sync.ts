/**
 * Scenario 9 (docs/api.md, Appointments, Sync): one `POST .../appointments/sync/` of a full list
 * (5,000 new appointments) against the same rows written by one bare INSERT ... ON CONFLICT
 * through `pg` (bench/lib/bare-sql.ts), the two in turns over a few rounds. Driven from the
 * orchestrator (bench/run.ts).
 */
import type { Client } from 'pg';
import type { Api } from './lib/api';
import {
  DAY_MS,
  loopPassed,
  putPolicy,
  SYNC,
  type SyncAnswer,
  syncBody,
  windowAt,
} from './lib/appointments';
import { UPSERT_APPOINTMENTS } from './lib/bare-sql';
import { ms, ratio, row, Row } from './lib/report';

export interface SyncSizes {
  items: number;
  rounds: number;
}

export interface SyncFigures extends SyncSizes {
  /** Each round's sync, from sending the body to its answer. */
  serviceMs: number[];
  /** Each round's bare statement, from serialising its rows to its answer. */
  bareMs: number[];
  problems: string[];
}

export interface SyncAccount {
  api: Api;
  accountId: string;
  locationId: string;
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

/**
 * Each round: the service syncs `items` new appointments of a window of their own (so every item
 * is created and none is cancelled), then the bare statement writes the rows the service stored
 * into another account (its default location): the same values, the check keys included. After
 * each, the checks loop's pass over the new rows (due at once; the policy checks an hour before
 * only) is let finish, so neither side's timing carries the other's.
 */
export async function runSyncScenario(
  db: Client,
  service: SyncAccount,
  bare: SyncAccount,
  c: SyncSizes,
): Promise<SyncFigures> {
  const f: SyncFigures = { ...c, serviceMs: [], bareMs: [], problems: [] };
  await putPolicy(service.api, false);
  await putPolicy(bare.api, false);
  for (let r = 0; r < c.rounds; r++) {
    const prefix = `sync${r}`;
    const body = syncBody(
      prefix,
      c.items,
      windowAt(new Date(Date.now() + (1 + 30 * r) * DAY_MS), 30),
    );
    const t0 = performance.now();
    const answer = await service.api.expect<SyncAnswer>(200, 'POST', SYNC, body);
    f.serviceMs.push(performance.now() - t0);
    if (answer.created !== c.items || answer.errors.length > 0 || answer.cancelled > 0)
      f.problems.push(`round ${r + 1}: sync answered ${JSON.stringify(answer).slice(0, 300)}`);
    await loopPassed(db, service.accountId);

    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT external_id, starts_at, ends_at, status, services, patient_code, patient,
              insurer_codes, source_updated_at, visit_date::text AS visit_date, check_key
       FROM appointments WHERE account_id = $1 AND external_id LIKE $2 ORDER BY external_id`,
      [service.accountId, `${prefix}-%`],
    );
    const values = rows.map((v) => ({ ...v, location_id: bare.locationId }));
    const t1 = performance.now();
    const written = await db.query(UPSERT_APPOINTMENTS, [
      bare.accountId,
      JSON.stringify(values),
      new Date(),
    ]);
    f.bareMs.push(performance.now() - t1);
    if (written.rowCount !== c.items)
      f.problems.push(`round ${r + 1}: the bare statement wrote ${written.rowCount} rows`);
    await loopPassed(db, bare.accountId);
  }
  return f;
}

export function syncRows(f: SyncFigures): Row[] {
  const sc = `9 sync of ${f.items.toLocaleString('en')} appointments`;
  const service = median(f.serviceMs);
  const bare = median(f.bareMs);
  const each = (v: number[]) => v.map((x) => ms(x)).join(', ');
  return [
    row(
      sc,
      'one sync call vs bare INSERT … ON CONFLICT (median of rounds)',
      `${ms(service)} / ${ms(bare)} = ${ratio(service / bare)}`,
      '≤ 3×',
      service / bare <= 3,
    ),
    row(
      sc,
      'each round: service; bare',
      `${each(f.serviceMs)}; ${each(f.bareMs)}`,
      'context',
      null,
    ),
    row(
      sc,
      'every item created, none refused',
      f.problems.length === 0 ? `yes (${f.rounds} × ${f.items})` : f.problems.join('; '),
      'all',
      f.problems.length === 0,
    ),
  ];
}
