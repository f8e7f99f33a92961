import { createHash, randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ForbiddenError } from '@/common/errors';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { AccountsService } from '@/modules/accounts/accounts.service';
import { AuditService } from '@/modules/audit/audit.service';
import { type AuditContext, securityEvent } from '@/modules/audit/security-events';

export const ENTRY_POINTS = ['add_patient', 'insurers', 'passwords'] as const;
export type EntryPoint = (typeof ENTRY_POINTS)[number];

const TOKEN_TTL_SECONDS = 300;

export interface RedeemedToken {
  accountId: string;
  userId: string;
  entryPoint: EntryPoint;
  /** The API key that minted the link: the session ends when it is revoked (CONTRACT §20). */
  apiKeyId: string;
}

type TokenRow = {
  account_id: string;
  user_id: string;
  entry_point: EntryPoint;
  api_key_id: string;
};

/** Embedded sessions (CONTRACT §7): single-use, five-minute tokens, stored as SHA-256 only. */
@Injectable()
export class IframeSessionService {
  private readonly logger = new Logger(IframeSessionService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly accounts: AccountsService,
    @InjectConfig() private readonly config: AppConfig,
    private readonly audit: AuditService,
  ) {}

  /** Mints a link with the calling API key (`ctx` names it), recorded in the audit trail. */
  async create(ctx: AuditContext, entryPoint: EntryPoint): Promise<string> {
    const { accountId, apiKeyId } = ctx.actor;
    if (!apiKeyId) throw new Error('An embedded-session link is minted by an API key.');
    const account = await this.accounts.getAccount(accountId);
    if (!account.iframeEnabled)
      throw new ForbiddenError('Iframe is not activated for the current user.');
    const user = await this.accounts.firstUserOfAccount(accountId);
    if (!user) throw new ForbiddenError('Iframe is not activated for the current user.');
    const token = randomBytes(32).toString('hex');
    await this.db.query(
      `INSERT INTO iframe_tokens (token_hash, account_id, user_id, entry_point, api_key_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + ($6 || ' seconds')::interval)`,
      [hashToken(token), accountId, user.id, entryPoint, apiKeyId, String(TOKEN_TTL_SECONDS)],
    );
    // Old tokens are useless; keep the table small.
    await this.db.query(`DELETE FROM iframe_tokens WHERE expires_at < now() - interval '1 day'`);
    await this.audit.record(securityEvent(ctx, 'embed_link', 'mint', entryPoint));
    this.logger.log({ accountId, entryPoint }, 'iframe session created');
    const params = new URLSearchParams({ token, entry_point: entryPoint });
    return `${this.config.publicUrl}/embed/?${params.toString()}`;
  }

  /** Marks the token used and returns whom it signs in; null when unknown, used or expired. */
  async redeem(token: string): Promise<RedeemedToken | null> {
    if (!/^[0-9a-f]{64}$/.test(token)) return null;
    const rows: TokenRow[] = await this.db.query(
      `WITH used AS (
         UPDATE iframe_tokens SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() AND api_key_id IS NOT NULL
         RETURNING account_id, user_id, entry_point, api_key_id)
       SELECT * FROM used`,
      [hashToken(token)],
    );
    return rows.length === 0 ? null : redeemed(rows[0]);
  }

  /**
   * Whom the token would sign in, without using it: a browser already signed in is asked first,
   * and the link must still work when the person confirms.
   */
  async peek(token: string): Promise<RedeemedToken | null> {
    if (!/^[0-9a-f]{64}$/.test(token)) return null;
    const rows: TokenRow[] = await this.db.query(
      `SELECT account_id, user_id, entry_point, api_key_id FROM iframe_tokens
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() AND api_key_id IS NOT NULL`,
      [hashToken(token)],
    );
    return rows.length === 0 ? null : redeemed(rows[0]);
  }
}

function redeemed(row: TokenRow): RedeemedToken {
  return {
    accountId: row.account_id,
    userId: row.user_id,
    entryPoint: row.entry_point,
    apiKeyId: row.api_key_id,
  };
}

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
