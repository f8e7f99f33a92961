import { type Env, optionalReaders } from './env-parts';
import type { ClearinghouseConfig } from './clearinghouse';

/**
 * Claim submission settings of docs/api.md, Claim lifecycle, parsed from the environment by loadConfig. The
 * endpoints share the clearinghouse account (credentials, X12 ids, payer ids) of docs/api.md, Real insurers.
 */
export interface ClaimsConfig {
  /** Raw-X12 professional claims endpoint (837P); null: every claim goes the paper route. */
  claimsUrl: string | null;
  /** Raw-X12 claim status endpoint (276/277); null: submitted claims are not followed up. */
  claimStatusUrl: string | null;
  /** Between two status checks of a claim not yet final. */
  statusIntervalMs: number;
  /** First retry of a transient submission failure; doubles each attempt. */
  submitRetryBaseMs: number;
  /** Submission attempts before a transient failure becomes final. */
  submitMaxAttempts: number;
  /**
   * docs/api.md, Claim reports and remittances: the clearinghouse's report polling endpoint (999, 277CA, 835); null: reports
   * come only by upload or in submit answers.
   */
  reportsUrl: string | null;
  /** Between two polls of the reports endpoint. */
  reportsIntervalMs: number;
  /**
   * Claim reports an account may upload (and have stored) in 24 hours: each is up to 5 MiB kept
   * for good, so one key could otherwise fill the database for every account.
   */
  reportsMaxPerDay: number;
  /** INSURER_CLAIM_STATUS: the insurers whose claims are followed with 276/277 (default none). */
  statusInsurers: string[];
  /** 276 checks of one claim before it waits for reports only. */
  statusMaxChecks: number;
}

export function loadClaimsConfig(
  env: Env,
  isProduction: boolean,
  clearinghouse: ClearinghouseConfig,
  problems: string[],
): ClaimsConfig {
  const { get, url } = optionalReaders(env, isProduction, problems);
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = get(name);
    if (raw === null) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name}: must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };

  const claimsUrl = url('CLEARINGHOUSE_CLAIMS_URL');
  const claimStatusUrl = url('CLEARINGHOUSE_CLAIM_STATUS_URL');
  const reportsUrl = url('CLEARINGHOUSE_REPORTS_URL');
  for (const [name, value] of [
    ['CLEARINGHOUSE_CLAIMS_URL', claimsUrl],
    ['CLEARINGHOUSE_CLAIM_STATUS_URL', claimStatusUrl],
    ['CLEARINGHOUSE_REPORTS_URL', reportsUrl],
  ] as const) {
    if (value === null) continue;
    if (!clearinghouse.auth)
      problems.push(
        `CLEARINGHOUSE_API_KEY: required (or CLEARINGHOUSE_TOKEN_URL/CLIENT_ID/CLIENT_SECRET) when ${name} is set`,
      );
    if (!clearinghouse.submitterId || !clearinghouse.receiverId)
      problems.push(`X12_SUBMITTER_ID, X12_RECEIVER_ID: required when ${name} is set`);
  }
  return {
    claimsUrl,
    claimStatusUrl,
    // Payers adjudicate in days: one check every 6 hours by default.
    statusIntervalMs: int('CLAIM_STATUS_INTERVAL_MS', 6 * 3_600_000, 100, 7 * 86_400_000),
    submitRetryBaseMs: int('CLAIM_SUBMIT_RETRY_BASE_MS', 60_000, 10, 3_600_000),
    submitMaxAttempts: int('CLAIM_SUBMIT_MAX_ATTEMPTS', 8, 1, 50),
    reportsUrl: reportsUrl?.replace(/\/+$/, '') ?? null,
    reportsIntervalMs: int('CLAIM_REPORTS_INTERVAL_MS', 300_000, 100, 86_400_000),
    reportsMaxPerDay: int('CLAIM_REPORTS_MAX_PER_DAY', 200, 1, 100_000),
    statusInsurers: (get('INSURER_CLAIM_STATUS') ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter((c) => c !== ''),
    statusMaxChecks: int('CLAIM_STATUS_MAX_CHECKS', 20, 1, 1000),
  };
}
