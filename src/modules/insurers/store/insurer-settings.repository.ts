import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '@/platform/db/database';
import { execute, query, queryOne, sql } from '@/platform/db/sql';

/** An `account_insurers` row as a search reads it. */
export interface InsurerSettingRow {
  insurer_code: string;
  enabled: boolean;
  username: string | null;
  password_sealed: string | null;
  /** docs/api.md, Insurers and assisted verification: `assisted` when the account sends this insurer's checks to a person. */
  eligibility_mode?: 'assisted' | null;
}

/** An `account_insurers` row as the settings pages read it (never the sealed password). */
interface InsurerSettingListRow {
  insurer_code: string;
  enabled: boolean;
  username: string | null;
  credentials_set_at: Date | null;
  claims_mailing_address: string | null;
  eligibility_mode: 'assisted' | null;
  credentials_status: 'ok' | 'needs_attention';
}

/**
 * `account_insurers`: an account's settings per insurer (on or off, its eligibility path, its
 * claims mailing address) and the credentials its connector signs in with (the password sealed
 * by the service). A row exists only once something was set; each setter creates it.
 */
@Injectable()
export class InsurerSettingsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The account's rows (no order). */
  list(accountId: string, tx?: Tx): Promise<InsurerSettingListRow[]> {
    return query(
      this.db,
      sql`SELECT insurer_code, enabled, username, credentials_set_at, claims_mailing_address, eligibility_mode,
              credentials_status
       FROM account_insurers WHERE account_id = ${accountId}`,
      tx,
    );
  }

  /** The row of `code` as a search reads it (with the sealed password), or undefined. */
  async findForSearch(
    accountId: string,
    code: string,
    tx?: Tx,
  ): Promise<InsurerSettingRow | undefined> {
    const row = await queryOne<InsurerSettingRow>(
      this.db,
      sql`SELECT insurer_code, enabled, username, password_sealed FROM account_insurers
       WHERE account_id = ${accountId} AND insurer_code = ${code}`,
      tx,
    );
    return row ?? undefined;
  }

  /** The account's own claims mailing address for `code` (lines joined by `\n`), or null. */
  async findClaimsMailingAddress(accountId: string, code: string, tx?: Tx): Promise<string | null> {
    const row = await queryOne<{ claims_mailing_address: string | null }>(
      this.db,
      sql`SELECT claims_mailing_address FROM account_insurers
       WHERE account_id = ${accountId} AND insurer_code = ${code}`,
      tx,
    );
    return row?.claims_mailing_address ?? null;
  }

  async upsertEligibilityMode(
    accountId: string,
    code: string,
    mode: 'assisted' | null,
    tx?: Tx,
  ): Promise<void> {
    await this.upsertColumn('eligibility_mode', accountId, code, mode, tx);
  }

  async upsertEnabled(accountId: string, code: string, enabled: boolean, tx?: Tx): Promise<void> {
    await this.upsertColumn('enabled', accountId, code, enabled, tx);
  }

  /** `address`: lines joined by `\n`, or null for the shipped table's. */
  async upsertClaimsMailingAddress(
    accountId: string,
    code: string,
    address: string | null,
    tx?: Tx,
  ): Promise<void> {
    await this.upsertColumn('claims_mailing_address', accountId, code, address, tx);
  }

  /** One setting of the account's row for `code`, the row made when it has none yet. */
  private async upsertColumn(
    column: 'eligibility_mode' | 'enabled' | 'claims_mailing_address',
    accountId: string,
    code: string,
    value: string | boolean | null,
    tx?: Tx,
  ): Promise<void> {
    const name = sql.raw(column);
    await execute(
      this.db,
      sql`INSERT INTO account_insurers (account_id, insurer_code, ${name}) VALUES (${accountId}, ${code}, ${value})
       ON CONFLICT (account_id, insurer_code) DO UPDATE SET ${name} = ${value}, updated_at = now()`,
      tx,
    );
  }

  /** Stores the credentials (set now, status `ok`). */
  async upsertCredentials(
    accountId: string,
    code: string,
    username: string,
    passwordSealed: string,
    tx?: Tx,
  ): Promise<void> {
    await execute(
      this.db,
      sql`INSERT INTO account_insurers (account_id, insurer_code, username, password_sealed, credentials_set_at)
       VALUES (${accountId}, ${code}, ${username}, ${passwordSealed}, now())
       ON CONFLICT (account_id, insurer_code)
       DO UPDATE SET username = ${username}, password_sealed = ${passwordSealed}, credentials_set_at = now(),
         credentials_status = 'ok', updated_at = now()`,
      tx,
    );
  }

  async clearCredentials(accountId: string, code: string, tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE account_insurers SET username = NULL, password_sealed = NULL, credentials_set_at = NULL,
         credentials_status = 'ok', updated_at = now()
       WHERE account_id = ${accountId} AND insurer_code = ${code}`,
      tx,
    );
  }

  /** Stored credentials (only) are marked `needs_attention`. */
  async markCredentialsNeedAttention(accountId: string, code: string, tx?: Tx): Promise<void> {
    await execute(
      this.db,
      sql`UPDATE account_insurers SET credentials_status = 'needs_attention', updated_at = now()
       WHERE account_id = ${accountId} AND insurer_code = ${code} AND password_sealed IS NOT NULL`,
      tx,
    );
  }
}
