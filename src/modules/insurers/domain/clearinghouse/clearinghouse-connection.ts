import { randomInt } from 'node:crypto';
import type { ClearinghouseConfig } from '@/platform/config/clearinghouse';
import type { EnvelopeSettings } from '@/lib/x12';
import { AuthorizationSource, authorizationFor } from './clearinghouse-auth';

export interface ClearinghouseDependencies {
  fetch?: typeof fetch;
  /** Epoch milliseconds (tests move time for token expiry). */
  now?: () => number;
}

/**
 * What the eligibility and the claims clients share of the clearinghouse account (docs/api.md,
 * Real insurers): its configuration and credentials, the HTTP fetch and the clock, the payer ids
 * and the envelope of an outgoing interchange.
 */
export abstract class ClearinghouseConnection {
  protected readonly fetchImpl: typeof fetch;
  protected readonly now: () => number;
  protected readonly authorization: AuthorizationSource | null;

  constructor(
    protected readonly config: ClearinghouseConfig,
    dependencies: ClearinghouseDependencies = {},
  ) {
    this.fetchImpl = dependencies.fetch ?? fetch;
    this.now = dependencies.now ?? Date.now;
    this.authorization = config.auth
      ? authorizationFor(config.auth, this.fetchImpl, this.now)
      : null;
  }

  /** The payer id an insurer is asked under, or null when it is not asked over X12. */
  payerIdFor(insurerCode: string): string | null {
    return this.config.payerIds[insurerCode] ?? null;
  }

  /**
   * The envelope of one interchange (ISA06/ISA08 are the submitter and receiver): a fresh ISA13
   * and the time now, unless given (a claim's retry sends the interchange of its first attempt).
   */
  envelope(kept: { controlNumber?: number; createdAt?: Date } = {}): EnvelopeSettings {
    return {
      senderId: this.config.submitterId,
      receiverId: this.config.receiverId,
      usage: this.config.usage,
      controlNumber: kept.controlNumber ?? randomInt(1, 1_000_000_000),
      createdAt: kept.createdAt ?? new Date(this.now()),
    };
  }
}
