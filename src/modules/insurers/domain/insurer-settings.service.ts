import { Injectable, Logger } from '@nestjs/common';
import { ValidationFailed } from '@/platform/kernel/errors';
import { openSecret, sealSecret } from '@/platform/kernel/secret-box';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import type { InsurerCredentials } from './insurer-connector';
import { CLAIMS_MAILING_ADDRESSES, mailingLines } from './claims-mailing-addresses';
import {
  type InsurerCode,
  isKnownInsurer,
  KNOWN_INSURERS,
  unknownInsurerMessages,
} from './insurer-codes';
import { type EligibilityPath, eligibilityPath } from './insurer-directory.table';
import { InsurerRegistry } from './insurer-registry.service';
import {
  type InsurerSettingRow,
  InsurerSettingsRepository,
} from '../store/insurer-settings.repository';

export type { InsurerSettingRow } from '../store/insurer-settings.repository';

export interface InsurerSetting {
  code: string;
  name: string;
  enabled: boolean;
  /** The service has a connector for it (the others end `insurer_problem`). */
  connected: boolean;
  username: string | null;
  /** When credentials were last set; the password itself is never shown back. */
  credentialsSetAt: Date | null;
  /** Its connector signs in with the account's stored credentials (the Passwords page asks). */
  usesCredentials: boolean;
  /** Where paper claims go (docs/api.md, Errors): the account's override, else the shipped table's. */
  mailing: ClaimsMailing;
  /** docs/api.md, Insurers and assisted verification: the account's choice (`assisted`), or null for the default path. */
  eligibilityMode: 'assisted' | null;
  /** How its searches are answered for this account (the directory's `eligibility`). */
  eligibility: EligibilityPath;
  /** The stored credentials' health: none stored, usable, or failed by a verifier. */
  credentials: 'none' | 'ok' | 'needs_attention';
}

/** An insurer's claims mailing address as an envelope carries it, one line each. */
interface ClaimsMailing {
  lines: string[];
  /** `account`: the account's override; `table`: claims-mailing-addresses.ts (with its source). */
  origin: 'account' | 'table';
  source: string;
}

/** The override's last line: `City, ST 12345` or `City, ST 12345-6789`. */
const CITY_LINE = /^.+,\s*[A-Za-z]{2}\s+\d{5}(-\d{4})?$/;

/**
 * Which insurers an account uses, and the credentials each connector signs in with. Passwords
 * are sealed with AES-256-GCM under APP_ENCRYPTION_KEY, bound to account and insurer.
 */
@Injectable()
export class InsurerSettingsService {
  private readonly logger = new Logger(InsurerSettingsService.name);

  constructor(
    private readonly settings: InsurerSettingsRepository,
    @InjectConfig() private readonly config: AppConfig,
    private readonly registry: InsurerRegistry,
  ) {}

  async list(accountId: string): Promise<InsurerSetting[]> {
    const rows = await this.settings.list(accountId);
    const byCode = new Map(rows.map((r) => [r.insurer_code, r]));
    return KNOWN_INSURERS.map(({ code, name }) => {
      const row = byCode.get(code);
      const enabled = row?.enabled ?? true;
      const eligibilityMode = row?.eligibility_mode ?? null;
      return {
        code,
        name,
        enabled,
        eligibilityMode,
        eligibility: this.pathOf(code, enabled, eligibilityMode),
        credentials: !row?.credentials_set_at ? 'none' : row.credentials_status,
        connected: this.registry.has(code),
        usesCredentials: this.registry.usesAccountCredentials(code),
        username: row?.username ?? null,
        credentialsSetAt: row?.credentials_set_at ?? null,
        mailing: mailingOf(code, row?.claims_mailing_address ?? null),
      };
    });
  }

  /** How searches of an account reach `code` with these settings (docs/api.md, Insurers and assisted verification). */
  pathOf(code: string, enabled: boolean, mode: 'assisted' | null): EligibilityPath {
    return eligibilityPath(
      code,
      { enabled, mode },
      { exists: this.registry.has(code), local: this.registry.get(code)?.local === true },
    );
  }

  /** docs/api.md, Insurers and assisted verification: sends the account's checks of `code` to a person (`assisted`) or back (null). */
  async setEligibilityMode(
    accountId: string,
    code: string,
    mode: 'assisted' | null,
  ): Promise<void> {
    this.assertKnown(code);
    await this.settings.upsertEligibilityMode(accountId, code, mode);
    this.logger.log({ accountId, insurer: code, mode: mode ?? 'default' }, 'insurer path set');
  }

  /** A verifier could not sign in with the stored credentials: the Passwords page says so. */
  async markCredentialsNeedAttention(accountId: string, code: string): Promise<void> {
    await this.settings.markCredentialsNeedAttention(accountId, code);
  }

  /** The account's stored credentials for `code`, decrypted; null when none are stored. */
  async credentialsOf(accountId: string, code: string): Promise<InsurerCredentials | null> {
    const row = await this.settings.findForSearch(accountId, code);
    return row ? this.forSearch(accountId, code, row).credentials : null;
  }

  async setEnabled(accountId: string, code: string, enabled: boolean): Promise<void> {
    this.assertKnown(code);
    await this.settings.upsertEnabled(accountId, code, enabled);
    this.logger.log({ accountId, insurer: code, enabled }, 'insurer toggled');
  }

  async setCredentials(
    accountId: string,
    code: string,
    username: string,
    password: string,
  ): Promise<void> {
    this.assertKnown(code);
    const errors: Record<string, { $: string[] }> = {};
    if (!username.trim()) errors.username = { $: ['This field may not be blank.'] };
    if (username.length > 200)
      errors.username = { $: ['Ensure this field has no more than 200 characters.'] };
    if (!password) errors.password = { $: ['This field may not be blank.'] };
    if (password.length > 500)
      errors.password = { $: ['Ensure this field has no more than 500 characters.'] };
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
    const sealed = sealSecret(this.config.encryptionKey, password, aad(accountId, code));
    await this.settings.upsertCredentials(accountId, code, username.trim(), sealed);
    this.logger.log({ accountId, insurer: code }, 'insurer credentials set');
  }

  async deleteCredentials(accountId: string, code: string): Promise<void> {
    this.assertKnown(code);
    await this.settings.clearCredentials(accountId, code);
    this.logger.log({ accountId, insurer: code }, 'insurer credentials deleted');
  }

  /**
   * What a search needs of an insurer: whether it is on for the account, and its decrypted
   * credentials, from its `account_insurers` row as stored (none: on, without credentials). The
   * search runner reads the rows with its lease (SEARCH_SETUP_SQL).
   */
  forSearch(
    accountId: string,
    code: string,
    row: InsurerSettingRow | undefined,
  ): { enabled: boolean; credentials: InsurerCredentials | null } {
    if (!row) return { enabled: true, credentials: null };
    const credentials =
      row.password_sealed && row.username
        ? {
            username: row.username,
            password: openSecret(this.config, row.password_sealed, aad(accountId, code)),
          }
        : null;
    return { enabled: row.enabled, credentials };
  }

  /** Where the account's paper claims to `code` are mailed (docs/api.md, Errors). */
  async claimsMailing(accountId: string, code: string): Promise<ClaimsMailing> {
    return mailingOf(code, await this.settings.findClaimsMailingAddress(accountId, code));
  }

  /**
   * The account's own claims mailing address for `code`, one line each (payer, street or P.O.
   * box, `City, ST ZIP`); blank goes back to the shipped table's.
   */
  async setClaimsMailing(accountId: string, code: string, text: string): Promise<void> {
    this.assertKnown(code);
    const lines = text
      .split(/\r?\n/)
      .map((l) => l.trim().replace(/\s+/g, ' '))
      .filter(Boolean);
    const stored = lines.length ? lines.join('\n') : null;
    const problem =
      stored && stored.length > 300
        ? 'Ensure this field has no more than 300 characters.'
        : lines.length === 1 || (lines.length > 1 && !CITY_LINE.test(lines[lines.length - 1]))
          ? "Write the payer's name, the street or P.O. box, and last the city, state and ZIP code (Mason, OH 45040), one line each."
          : null;
    if (problem) throw ValidationFailed.field('claims_mailing_address', problem);
    await this.settings.upsertClaimsMailingAddress(accountId, code, stored);
    this.logger.log(
      { accountId, insurer: code, override: stored !== null },
      'claims mailing address set',
    );
  }

  private assertKnown(code: string): void {
    if (!isKnownInsurer(code)) throw new ValidationFailed({ $: unknownInsurerMessages(code) });
  }
}

const aad = (accountId: string, code: string) => `insurer-password:${accountId}:${code}`;

function mailingOf(code: string, override: string | null): ClaimsMailing {
  if (override) return { lines: override.split('\n'), origin: 'account', source: 'this account' };
  const shipped = CLAIMS_MAILING_ADDRESSES[code as InsurerCode];
  return shipped
    ? { lines: mailingLines(shipped), origin: 'table', source: shipped.source }
    : { lines: [], origin: 'table', source: 'none' };
}
