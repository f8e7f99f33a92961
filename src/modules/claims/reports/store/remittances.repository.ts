import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type KeysetPage, paginateKeyset } from '@/platform/http/pagination/keyset-paginator';
import { managerOf, type Tx } from '@/platform/db/database';
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
    const inserted: { id: string }[] = await managerOf(this.db, tx).query(
      `INSERT INTO remittances (account_id, report_id, payer_id, payer_name, trace_number,
         payment_amount, payment_method, paid_at, claims, provider_adjustments, claims_matched,
         claims_unmatched)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT ON CONSTRAINT remittances_once DO NOTHING RETURNING id`,
      [
        r.accountId,
        r.reportId,
        r.payerId,
        r.payerName,
        r.traceNumber,
        r.paymentAmount,
        r.paymentMethod,
        r.paidAt,
        JSON.stringify(r.claims),
        JSON.stringify(r.providerAdjustments),
        r.claimsMatched,
        r.claimsUnmatched,
      ],
    );
    return inserted[0]?.id ?? null;
  }

  /** A stored payment by id (it must exist). */
  getById(id: string, tx?: Tx): Promise<Remittance> {
    return managerOf(this.db, tx).findOneByOrFail(Remittance, { id });
  }

  /** The account's payment `id`, or null. */
  findOfAccount(accountId: string, id: string): Promise<Remittance | null> {
    return this.db.getRepository(Remittance).findOneBy({ id, accountId });
  }

  /** The account's payments, newest first (keyset on created_at, id). */
  page(accountId: string, limit: number, cursor?: string | null): Promise<KeysetPage<Remittance>> {
    return paginateKeyset(
      this.db
        .getRepository(Remittance)
        .createQueryBuilder('r')
        .where('r.account_id = :accountId', { accountId }),
      { limit, cursor },
    );
  }
}
