import { createHash, randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ForbiddenError } from '@/common/errors';
import { InjectConfig } from '@/config/config.module';
import type { AppConfig } from '@/config/env';
import { AccountsService } from '@/modules/accounts/accounts.service';

export const ENTRY_POINTS = ['add_patient', 'insurers', 'passwords'] as const;
export type EntryPoint = (typeof ENTRY_POINTS)[number];

const TOKEN_TTL_SECONDS = 300;

export interface RedeemedToken {
  accountId: string;
  userId: string;
  entryPoint: EntryPoint;
}

/** Embedded sessions (CONTRACT §7): single-use, five-minute tokens, stored as SHA-256 only. */
@Injectable()
export class IframeSessionService {
  private readonly logger = new Logger(IframeSessionService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly accounts: AccountsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async create(accountId: string, entryPoint: EntryPoint): Promise<string> {
    const account = await this.accounts.getAccount(accountId);
    if (!account.iframeEnabled)
      throw new ForbiddenError('Iframe is not activated for the current user.');
    const user = await this.accounts.firstUserOfAccount(accountId);
    if (!user) throw new ForbiddenError('Iframe is not activated for the current user.');
    const token = randomBytes(32).toString('hex');
    await this.db.query(
      `INSERT INTO iframe_tokens (token_hash, account_id, user_id, entry_point, expires_at)
       VALUES ($1, $2, $3, $4, now() + ($5 || ' seconds')::interval)`,
      [hashToken(token), accountId, user.id, entryPoint, String(TOKEN_TTL_SECONDS)],
    );
    // Old tokens are useless; keep the table small.
    await this.db.query(`DELETE FROM iframe_tokens WHERE expires_at < now() - interval '1 day'`);
    this.logger.log({ accountId, entryPoint }, 'iframe session created');
    const params = new URLSearchParams({ token, entry_point: entryPoint });
    return `${this.config.publicUrl}/embed/?${params.toString()}`;
  }

  /** Marks the token used and returns whom it signs in; null when unknown, used or expired. */
  async redeem(token: string): Promise<RedeemedToken | null> {
    if (!/^[0-9a-f]{64}$/.test(token)) return null;
    const rows: { account_id: string; user_id: string; entry_point: EntryPoint }[] =
      await this.db.query(
        `WITH used AS (
         UPDATE iframe_tokens SET used_at = now()
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
         RETURNING account_id, user_id, entry_point)
       SELECT * FROM used`,
        [hashToken(token)],
      );
    if (rows.length === 0) return null;
    return {
      accountId: rows[0].account_id,
      userId: rows[0].user_id,
      entryPoint: rows[0].entry_point,
    };
  }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
