import { Injectable } from '@nestjs/common';
import { WindowCounts } from '@/platform/db/window-counts.repository';
import { ThrottledError } from '@/platform/kernel/errors';

/** Reads of stored portal passwords one verifier (API key or web user) may make per window. */
export const CREDENTIAL_READS_PER_HOUR = 10;
const WINDOW_SECONDS = 3_600;

/**
 * A verifier signs in to a portal a few times an hour at most; a key reading passwords faster
 * than that is scraping them. Counted in PostgreSQL (shared by every process; docs/configuration.md, Database and Redis) over
 * a fixed hour that starts with the first read.
 */
@Injectable()
export class CredentialsThrottle {
  constructor(private readonly counts: WindowCounts) {}

  /** Counts one read by `verifierId`; throws 429 past the limit. */
  async take(verifierId: string): Promise<void> {
    const [{ count, secondsLeft }] = await this.counts.raise(
      [`credential-reads:${verifierId}`],
      WINDOW_SECONDS,
      false,
    );
    if (count > CREDENTIAL_READS_PER_HOUR) throw new ThrottledError(Math.max(1, secondsLeft));
  }
}
