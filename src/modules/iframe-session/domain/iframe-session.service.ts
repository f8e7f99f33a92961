import { createHash, randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ConflictError, ForbiddenError } from '@/platform/kernel/errors';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { AccountsService } from '@/modules/accounts';
import { type AuditContext, AuditService, securityEvent } from '@/modules/audit';
import type { ApiScope } from '@/modules/auth';
import { type IframeTokenRow, IframeSessionsRepository } from '../store/iframe-sessions.repository';

export const ENTRY_POINTS = ['add_patient', 'insurers', 'passwords', 'schedule', 'quote'] as const;
export type EntryPoint = (typeof ENTRY_POINTS)[number];

/**
 * The scopes a key needs beyond EMBED_SCOPES to mint a link at an entry point whose pages reach
 * another area (docs/api.md, Embedded sessions): the Schedule page reads and writes appointments.
 */
export const ENTRY_POINT_SCOPES: Partial<Record<EntryPoint, readonly ApiScope[]>> = {
  schedule: ['appointments:write'],
};

const TOKEN_TTL_SECONDS = 300;

export const NO_FRAMING_ORIGIN =
  'No site may frame the web application yet, so a browser would refuse this link in an ' +
  "iframe. An administrator adds the embedding page's origin (such as https://pms.example.com) " +
  'in the web application under Settings, Embedding; then mint the link again.';

/** The Counter a `quote` link opens: one request's person. */
export interface CounterTarget {
  requestUid: string;
  personId: number;
}

interface RedeemedToken {
  accountId: string;
  userId: string;
  entryPoint: EntryPoint;
  /** The API key that minted the link: the session ends when it is revoked (SECURITY.md). */
  apiKeyId: string;
  /** Entry point `quote`: the request and person whose Counter opens (null otherwise). */
  counter: CounterTarget | null;
}

/** Embedded sessions (docs/api.md, Embedded sessions): single-use, five-minute tokens, stored as SHA-256 only. */
@Injectable()
export class IframeSessionService {
  private readonly logger = new Logger(IframeSessionService.name);

  constructor(
    private readonly tokens: IframeSessionsRepository,
    private readonly accounts: AccountsService,
    @InjectConfig() private readonly config: AppConfig,
    private readonly audit: AuditService,
  ) {}

  /**
   * Mints a link with the calling API key (`ctx` names it), recorded in the audit trail; at
   * `quote`, to the Counter of `counter`.
   */
  async create(
    ctx: AuditContext,
    entryPoint: EntryPoint,
    counter: CounterTarget | null = null,
  ): Promise<string> {
    const { accountId, apiKeyId } = ctx.actor;
    if (!apiKeyId) throw new Error('An embedded-session link is minted by an API key.');
    const account = await this.accounts.getAccount(accountId);
    if (!account.iframeEnabled)
      throw new ForbiddenError('Iframe is not activated for the current user.');
    // Browsers refuse a frame whose page names no framing origin: the link would only fail
    // there, with nothing but a console error, so minting says why instead (docs/api.md).
    if (account.frameAncestors.length === 0) throw new ConflictError(NO_FRAMING_ORIGIN);
    const user = await this.accounts.firstUserOfAccount(accountId);
    if (!user) throw new ForbiddenError('Iframe is not activated for the current user.');
    const token = randomBytes(32).toString('hex');
    await this.tokens.insert({
      tokenHash: hashToken(token),
      accountId,
      userId: user.id,
      entryPoint,
      apiKeyId,
      ttlSeconds: TOKEN_TTL_SECONDS,
      counter: entryPoint === 'quote' ? counter : null,
    });
    // Old tokens are useless; keep the table small.
    await this.tokens.deleteExpired();
    await this.audit.record(securityEvent(ctx, 'embed_link', 'mint', entryPoint));
    this.logger.log({ accountId, entryPoint }, 'iframe session created');
    const params = new URLSearchParams({ token, entry_point: entryPoint });
    return `${this.config.publicUrl}/embed/?${params.toString()}`;
  }

  /** Marks the token used and returns whom it signs in; null when unknown, used or expired. */
  async redeem(token: string): Promise<RedeemedToken | null> {
    if (!/^[0-9a-f]{64}$/.test(token)) return null;
    const row = await this.tokens.redeem(hashToken(token));
    return row ? redeemed(row) : null;
  }

  /**
   * Whom the token would sign in, without using it: a browser already signed in is asked first,
   * and the link must still work when the person confirms.
   */
  async peek(token: string): Promise<RedeemedToken | null> {
    if (!/^[0-9a-f]{64}$/.test(token)) return null;
    const row = await this.tokens.peek(hashToken(token));
    return row ? redeemed(row) : null;
  }
}

function redeemed(row: IframeTokenRow): RedeemedToken {
  return {
    accountId: row.account_id,
    userId: row.user_id,
    entryPoint: row.entry_point as EntryPoint,
    apiKeyId: row.api_key_id,
    counter:
      row.request_uid !== null && row.person_id !== null
        ? { requestUid: row.request_uid, personId: Number(row.person_id) }
        : null,
  };
}

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
