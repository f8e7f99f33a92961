import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type KeysetPage, paginateKeyset } from '@/platform/http/pagination/keyset-paginator';
import { managerOf, type Tx } from '@/platform/db/database';
import { PlanDesign } from './plan-design.entity';

export interface DesignFilter {
  insurerCode?: string;
  /** Part of the plan's name, group or group id, any case. */
  q?: string;
  limit: number;
  cursor?: string | null;
}

/** What a completed plan stores (docs/api.md, Plan designs). */
export interface DesignWrite {
  insurerCode: string;
  groupKey: string;
  planName: string;
  planGroup: string | null;
  planGroupId: string | null;
  /** The benefit tree without used values, as JSON text. */
  items: string;
}

/** The columns of a list's row: everything but the tree. */
const LISTED = [
  'd.id',
  'd.accountId',
  'd.insurerCode',
  'd.planName',
  'd.planGroup',
  'd.planGroupId',
  'd.usedCount',
  'd.lastUsedAt',
  'd.createdAt',
];

/** `text` as a LIKE pattern matching itself anywhere (its `%`, `_` and `\` taken literally). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `plan_designs` (docs/api.md, Plan designs): one benefit tree per account, insurer and group. */
@Injectable()
export class PlanDesignsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One keyset page of the account's designs (newest first), without their trees. */
  page(accountId: string, filter: DesignFilter): Promise<KeysetPage<PlanDesign>> {
    const qb = this.db
      .getRepository(PlanDesign)
      .createQueryBuilder('d')
      .select(LISTED)
      .where('d.account_id = :accountId', { accountId });
    if (filter.insurerCode) qb.andWhere('d.insurer_code = :code', { code: filter.insurerCode });
    if (filter.q)
      qb.andWhere('(d.plan_name ILIKE :q OR d.plan_group ILIKE :q OR d.plan_group_id ILIKE :q)', {
        q: containing(filter.q),
      });
    return paginateKeyset(qb, filter);
  }

  /** The account's design `id` with its tree, or null. */
  find(accountId: string, id: string, tx?: Tx): Promise<PlanDesign | null> {
    return managerOf(this.db, tx).getRepository(PlanDesign).findOneBy({ id, accountId });
  }

  /** The account's designs among `ids` with their trees (no order; missing ones left out). */
  findMany(accountId: string, ids: string[], tx?: Tx): Promise<PlanDesign[]> {
    return managerOf(this.db, tx)
      .getRepository(PlanDesign)
      .createQueryBuilder('d')
      .where('d.account_id = :accountId AND d.id = ANY(CAST(:ids AS uuid[]))', { accountId, ids })
      .getMany();
  }

  /**
   * Stores the design of one group, or replaces the tree, name and group words of the one the
   * group had (its use count and creation time stay).
   */
  async upsert(accountId: string, design: DesignWrite, tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).query(
      `INSERT INTO plan_designs
         (account_id, insurer_code, group_key, plan_name, plan_group, plan_group_id, items)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)
       ON CONFLICT (account_id, insurer_code, group_key) DO UPDATE
         SET plan_name = EXCLUDED.plan_name, plan_group = EXCLUDED.plan_group,
             plan_group_id = EXCLUDED.plan_group_id, items = EXCLUDED.items, updated_at = now()`,
      [
        accountId,
        design.insurerCode,
        design.groupKey,
        design.planName,
        design.planGroup,
        design.planGroupId,
        design.items,
      ],
    );
  }

  /** One more use of each of the account's designs `ids`, now. */
  async markUsed(accountId: string, ids: string[], tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).query(
      `UPDATE plan_designs SET used_count = used_count + 1, last_used_at = now()
       WHERE account_id = $1 AND id = ANY($2::uuid[])`,
      [accountId, ids],
    );
  }
}
