import type { MigrationInterface, QueryRunner } from 'typeorm';
import { migrations } from './migrations';

/**
 * The statements every migration runs, up and down, as recorded from a query runner that answers
 * every statement with one row of what the migrations read: lz4 is supported, no row is in the
 * way of a rollback (`n` = 0). A migration that has run somewhere is history: its SQL must not
 * change, whatever its TypeScript looks like (the snapshot beside this file holds it).
 */
async function statementsOf(
  migration: MigrationInterface,
  way: 'up' | 'down',
): Promise<{ sql: string; params?: unknown[] }[]> {
  const ran: { sql: string; params?: unknown[] }[] = [];
  const runner = {
    query: (sql: string, params?: unknown[]) => {
      ran.push(params === undefined ? { sql } : { sql, params });
      return Promise.resolve([{ supported: true, n: 0 }]);
    },
  };
  await migration[way](runner as unknown as QueryRunner);
  return ran;
}

describe('the migrations', () => {
  const instances = (migrations as (new () => MigrationInterface)[]).map((M) => new M());

  it('are named by their class, each ending in its own timestamp, in order', () => {
    const names = instances.map((m) => m.name ?? m.constructor.name);
    expect(new Set(names).size).toBe(names.length);
    const stamps = names.map((n) => Number(/(\d{13})$/.exec(n ?? '')?.[1]));
    expect(stamps.every((s) => Number.isFinite(s))).toBe(true);
  });

  it.each(
    (migrations as (new () => MigrationInterface)[]).map((M) => [new M().name ?? M.name, M] as const),
  )('%s runs the statements it always ran', async (_name, M) => {
    const m = new M();
    expect({ up: await statementsOf(m, 'up'), down: await statementsOf(m, 'down') }).toMatchSnapshot();
  });
});
