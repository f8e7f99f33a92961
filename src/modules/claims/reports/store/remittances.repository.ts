import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type KeysetPage, keysetPage } from '@/platform/http/pagination/keyset-paginator';
import type { Tx } from '@/platform/db/database';
import { entityColumns } from '@/platform/db/entity-columns';
import { queryOne, sql, type Sql } from '@/platform/db/sql';
import {
  type ProviderAdjustmentEntry,
  Remittance,
  type RemittanceClaimEntry,
} from './remittance.entity';

/** An 835 payment as it is stored (text columns already cut to their lengths by the caller). */
export interface NewRemittance {
  accountId: string;
  reportId: string;
  payerId: string;
  payerName: string;
  traceNumber: string;
  paymentAmount: string;
  paymentMethod: string;
  paidAt: string | null;
  claims: RemittanceClaimEntry[];
  providerAdjustments: ProviderAdjustmentEntry[];
  claimsMatched: number;
  claimsUnmatched: number;
}

/** 835 payments (`remittances`), stored once per (account, payer, TRN02). */
@Injectable()
export class RemittancesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores the payment; null when it was stored before (`remittances_once`). */
  async insertOnce(r: NewRemittance, tx?: Tx): Promise<string | null> {
    const inserted = await queryOne<{ id: string }>(
      this.db,
      sql`INSERT INTO remittances (account_id, report_id, payer_id, payer_name, trace_number,
         payment_amount, payment_method, paid_at, claims, provider_adjustments, claims_matched,
         claims_unmatched)
       VALUES (${r.accountId}, ${r.reportId}, ${r.payerId}, ${r.payerName}, ${r.traceNumber},
         ${r.paymentAmount}, ${r.paymentMethod}, ${r.paidAt}, ${JSON.stringify(r.claims)},
         ${JSON.stringify(r.providerAdjustments)}, ${r.claimsMatched}, ${r.claimsUnmatched})
       ON CONFLICT ON CONSTRAINT remittances_once DO NOTHING RETURNING id`,
      tx,
    );
    return inserted?.id ?? null;
  }

  /** The payments matching `where`. */
  private select(where: Sql): Sql {
    return sql`SELECT ${entityColumns(this.db, Remittance, 'r')} FROM remittances r WHERE ${where}`;
  }

  /** A stored payment by id (it must exist). */
  async getById(id: string, tx?: Tx): Promise<Remittance> {
    const row = await queryOne<Remittance>(this.db, this.select(sql`r.id = ${id}`), tx);
    if (!row) throw new Error(`Remittance ${id} is not stored.`);
    return row;
  }

  /** The account's payment `id`, or null. */
  findOfAccount(accountId: string, id: string): Promise<Remittance | null> {
    return queryOne(this.db, this.select(sql`r.id = ${id} AND r.account_id = ${accountId}`));
  }

  /** The account's payments, newest first (keyset on created_at, id). */
  page(accountId: string, limit: number, cursor?: string | null): Promise<KeysetPage<Remittance>> {
    return keysetPage(this.db, this.select(sql`r.account_id = ${accountId}`), { limit, cursor });
  }
}
