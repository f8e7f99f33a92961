import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type KeysetPage, keysetPage } from '@/platform/http/pagination/keyset-paginator';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { execute, query, queryOne, sql } from '@/platform/db/sql';
import { PlanDesign } from './plan-design.entity';

export interface DesignFilter {
  insurerCode?: string;
  /** Part of the plan's name, group or group id, any case. */
  q?: string;
  limit: number;
  cursor?: string | null;
}

/** What a completed plan stores (docs/api.md, Plan designs). */
interface DesignWrite {
  insurerCode: string;
  groupKey: string;
  planName: string;
  planGroup: string | null;
  planGroupId: string | null;
  /** The benefit tree without used values, as JSON text. */
  items: string;
  /** The group's price list as JSON text; null keeps the one the design has. */
  materials?: string | null;
}

/** The columns of a list's row: everything but the tree. */
const LISTED = [
  'id',
  'accountId',
  'insurerCode',
  'planName',
  'planGroup',
  'planGroupId',
  'usedCount',
  'lastUsedAt',
  'createdAt',
] as const;

/** `text` as a LIKE pattern matching itself anywhere (its `%`, `_` and `\` taken literally). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `plan_designs` (docs/api.md, Plan designs): one benefit tree per account, insurer and group. */
@Injectable()
export class PlanDesignsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One keyset page of the account's designs (newest first), without their trees. */
  page(accountId: string, filter: DesignFilter): Promise<KeysetPage<PlanDesign>> {
    const where = [sql`d.account_id = ${accountId}`];
    if (filter.insurerCode) where.push(sql`d.insurer_code = ${filter.insurerCode}`);
    if (filter.q) {
      const q = containing(filter.q);
      where.push(
        sql`(d.plan_name ILIKE ${q} OR d.plan_group ILIKE ${q} OR d.plan_group_id ILIKE ${q})`,
      );
    }
    const select = sql`SELECT ${entityColumns(this.db, PlanDesign, 'd', LISTED)}
      FROM plan_designs d WHERE ${sql.join(where, ' AND ')}`;
    return keysetPage(this.db, select, filter);
  }

  /** The account's design `id` with its tree, or null. */
  find(accountId: string, id: string, tx?: Tx): Promise<PlanDesign | null> {
    return queryOne(
      this.db,
      sql`SELECT ${entityColumns(this.db, PlanDesign, 'd')} FROM plan_designs d
       WHERE d.id = ${id} AND d.account_id = ${accountId}`,
      tx,
    );
  }

  /** The account's designs among `ids` with their trees (no order; missing ones left out). */
  findMany(accountId: string, ids: string[], tx?: Tx): Promise<PlanDesign[]> {
    return query(
      this.db,
      sql`SELECT ${entityColumns(this.db, PlanDesign, 'd')} FROM plan_designs d
       WHERE d.account_id = ${accountId} AND d.id = ANY(${ids}::uuid[])`,
      tx,
    );
  }

  /**
   * The price lists of the account's designs of the given insurers' groups, as
   * `insurer_code|group_key` → list (groups without one left out).
   */
  async materialsOf(
    accountId: string,
    groups: readonly { insurerCode: string; groupKey: string }[],
  ): Promise<Map<string, Record<string, unknown>>> {
    const rows = await query<{ insurer_code: string; group_key: string; materials: object }>(
      this.db,
      sql`SELECT d.insurer_code, d.group_key, d.materials FROM plan_designs d
       WHERE d.account_id = ${accountId} AND d.materials IS NOT NULL
         AND (d.insurer_code, d.group_key) IN (SELECT * FROM unnest(
           ${groups.map((g) => g.insurerCode)}::text[], ${groups.map((g) => g.groupKey)}::text[]))`,
    );
    return new Map(
      rows.map((r) => [`${r.insurer_code}|${r.group_key}`, r.materials as Record<string, unknown>]),
    );
  }

  /**
   * Stores the design of one group, or replaces the tree, name and group words of the one the
   * group had (its use count and creation time stay).
   */
  async upsert(accountId: string, design: DesignWrite, tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`INSERT INTO plan_designs
         (account_id, insurer_code, group_key, plan_name, plan_group, plan_group_id, items,
          materials)
       VALUES (${accountId}, ${design.insurerCode}, ${design.groupKey}, ${design.planName},
         ${design.planGroup}, ${design.planGroupId}, ${design.items}::jsonb,
         ${design.materials ?? null}::jsonb)
       ON CONFLICT (account_id, insurer_code, group_key) DO UPDATE
         SET plan_name = EXCLUDED.plan_name, plan_group = EXCLUDED.plan_group,
             plan_group_id = EXCLUDED.plan_group_id, items = EXCLUDED.items,
             materials = COALESCE(EXCLUDED.materials, plan_designs.materials), updated_at = now()`,
      tx,
    );
  }

  /** One more use of each of the account's designs `ids`, now. */
  async markUsed(accountId: string, ids: string[], tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE plan_designs SET used_count = used_count + 1, last_used_at = now()
       WHERE account_id = ${accountId} AND id = ANY(${ids}::uuid[])`,
      tx,
    );
  }
}
