import { DEFAULT_PASSWORD_HASH_COST, MAX_PASSWORD_HASH_COST } from './password-cost';
import { availableParallelism } from 'node:os';

/**
 * The one place that reads process.env. Every setting of docs/configuration.md is parsed and validated here;
 * a bad value stops start-up with one line per variable (see `ConfigError`).
 */

import { ClaimsConfig, loadClaimsConfig } from './claims';
import { ClearinghouseConfig, loadClearinghouseConfig } from './clearinghouse';
import { type CostLimits, loadCostLimits } from './cost-limits';
import {
  DatabaseSettings,
  databaseUrlSetting,
  defaultProcessCount,
  loadDatabaseSettings,
} from './database';
import { loadEncryptionKeys } from './encryption-keys';
import { environment } from './env-file';
import { type Env, envReaders, parseTrustProxy, retrySchedule, smtpRequiresTls } from './env-parts';
import { type LauncherSettings, loadLauncherSettings } from './launcher';
import { loadMetricsConfig, type MetricsConfig } from './metrics';
import { loadQueueSettings, type QueueSettings } from './queues';
import { loadTracingConfig, type TracingConfig } from './tracing';

export type Role = 'all' | 'api' | 'worker';

/** CMS's public NPPES NPI Registry API (version 2.1), asked in production unless turned off. */
const NPPES_API_URL = 'https://npiregistry.cms.hhs.gov/api/';

export interface AppConfig extends DatabaseSettings, LauncherSettings, QueueSettings {
  nodeEnv: string;
  isProduction: boolean;
  role: Role;
  port: number;
  publicUrl: string;
  databaseUrl: string;
  databasePoolSize: number;
  redisUrl: string;
  redisPrefix: string;
  logLevel: string;
  /** `json` lines, or `pretty` for a developer's terminal. */
  logFormat: 'json' | 'pretty';
  smtpUrl: string | null;
  mailFrom: string;
  mailDir: string;
  encryptionKey: Buffer;
  /** SECURITY.md, Keys: the key before a rotation, only to open what it sealed; null: none. */
  encryptionKeyPrevious: Buffer | null;
  sessionSecret: string;
  rateLimitPerMinute: number;
  /** docs/architecture.md, Behind a connection pooler: while Redis does not answer, each process admits this many per key per minute. */
  rateLimitFallbackPerMinute: number;
  /** docs/api.md, Authentication: requests without a valid credential, per address and process. */
  rateLimitUnauthenticatedPerMinute: number;
  /** docs/api.md, Conventions: the per-key budgets heavy requests spend by their cost. */
  costLimits: CostLimits;
  /** Processes heartbeat in `service_processes` this often; 3 missed = dead, its leases released. */
  processHeartbeatMs: number;
  /** On SIGTERM, how long readiness fails while the server still serves, before it closes. */
  shutdownDelayMs: number;
  webhookAllowPrivate: boolean;
  webhookRetrySchedule: number[];
  webhookTimeoutMs: number;
  demoSeed: boolean;
  /** docs/api.md, Errors: Swagger UI and /docs-json are served (public outside production by default). */
  docsPublic: boolean;
  /** NPPES NPI Registry read API (docs/api.md, Claims: a rendering provider is a type-1 NPI); null: off. */
  npiRegistryUrl: string | null;
  npiRegistryTimeoutMs: number;
  eligibilityWatchdogSeconds: number;
  /** docs/api.md, Insurers and assisted verification: how long a verifier's claim on a task lasts. */
  verificationLeaseMinutes: number;
  /** docs/api.md, Insurers and assisted verification: a task is due this long after it was created. */
  verificationSlaMinutes: number;
  /**
   * docs/api.md, Universal Search insurer by insurer: a task answered this many hours ago still
   * answers a later search of the same person (0: never reused).
   */
  verificationReuseHours: number;
  maintenanceIntervalMs: number;
  searchRetryBaseMs: number;
  /** docs/api.md, Real insurers: the clearinghouse real insurers are asked through (X12 270/271). */
  clearinghouse: ClearinghouseConfig;
  /** docs/api.md, Claim lifecycle: where claims are submitted (837P) and followed up (276/277). */
  claims: ClaimsConfig;
  /** Longest wait for one insurer call; past it the insurer counts as unavailable (retried). */
  insurerTimeoutMs: number;
  /**
   * SECURITY.md: eligibility requests older than this many days lose their patient data (the
   * daily retention job); null (unset) keeps everything.
   */
  phiRetentionDays: number | null;
  /** How long a process trusts an API key it has looked up (0 = look up every request). */
  apiKeyCacheSeconds: number;
  /** API processes `npm start` runs (1 = everything in one process, as ROLE says). */
  webConcurrency: number;
  /** docs/api.md, Batches: most concurrent calls to one insurer, across every process (batch items get the share singles leave). */
  insurerConcurrency: number;
  /**
   * SECURITY.md `TRUST_PROXY`: which proxies' X-Forwarded-For names the client (sign-in
   * throttling, the audit trail): a hop count, or addresses / CIDRs (and Express' names
   * `loopback`, `linklocal`, `uniquelocal`). Default `loopback`.
   */
  trustProxy: number | string[];
  /** Production with an `http://` PUBLIC_URL (cookies without Secure), said out loud. */
  allowInsecureHttp: boolean;
  /** log2 of scrypt's N for new password hashes (SECURITY.md: OWASP's 17 in production). */
  passwordHashCost: number;
  /** docs/observability.md, Tracing: OpenTelemetry over OTLP/HTTP; null (unset): off. */
  tracing: TracingConfig | null;
  /** docs/architecture.md, What operators see: METRICS_PORT's endpoint; null (unset): none. */
  metrics: MetricsConfig | null;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

// Development-only fallbacks. Production refuses to start without real values.
const DEV_SESSION_SECRET = 'development-session-secret-change-me';
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/vision';
// 1 min, 5 min, 15 min, 1 h, 2 h, 4 h, 8 h, 8 h: 9 attempts spread over about 23.4 hours.
const DEFAULT_RETRY_SCHEDULE = '60,300,900,3600,7200,14400,28800,28800';

export function loadConfig(
  env: Env = environment(),
  stdoutIsTty: boolean = process.stdout.isTTY === true,
): AppConfig {
  const problems: string[] = [];
  const nodeEnv = env.NODE_ENV?.trim() || 'development';
  const isProduction = nodeEnv === 'production';

  const { str, int, bool, url } = envReaders(env, problems);

  const role = str('ROLE', 'all') as Role;
  if (!['all', 'api', 'worker'].includes(role)) {
    problems.push(`ROLE: must be one of all, api, worker (got "${role}")`);
  }

  const port = int('PORT', 3000, 0, 65535);
  const publicUrl = url('PUBLIC_URL', `http://localhost:${port}`, ['http:', 'https:']).replace(
    /\/+$/,
    '',
  );
  const databaseUrl = databaseUrlSetting(env, isProduction, url, DEFAULT_DATABASE_URL, problems);
  // Unset: one process per CPU, less one for a PostgreSQL on this machine (src/platform/config/database.ts).
  const processes = defaultProcessCount(databaseUrl, availableParallelism());
  const redisUrl = url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']);
  const redisPrefix = str('REDIS_PREFIX', 'vision');
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(redisPrefix)) {
    problems.push(
      `REDIS_PREFIX: letters, digits, "_", "." or "-", at most 64 (got "${redisPrefix}")`,
    );
  }

  const logLevel = str('LOG_LEVEL', 'info');
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(`LOG_LEVEL: must be fatal, error, warn, info, debug, trace or silent`);
  }

  // Human-readable on a terminal in development; JSON lines everywhere else (log collectors).
  const logFormat = str('LOG_FORMAT', nodeEnv === 'development' && stdoutIsTty ? 'pretty' : 'json');
  if (logFormat !== 'json' && logFormat !== 'pretty') {
    problems.push(`LOG_FORMAT: must be json or pretty (got "${logFormat}")`);
  }

  // SECURITY.md: production sessions and links travel over TLS only, unless said otherwise.
  const allowInsecureHttp = bool('ALLOW_INSECURE_HTTP', false);
  if (isProduction && publicUrl.startsWith('http://') && !allowInsecureHttp) {
    problems.push(
      'PUBLIC_URL: must be https:// when NODE_ENV=production (session cookies are Secure only ' +
        'over https); set ALLOW_INSECURE_HTTP=true to run without TLS anyway',
    );
  }

  const npiRegistryUrl = ['', 'off'].includes(
    str('NPI_REGISTRY_URL', isProduction ? NPPES_API_URL : '').trim(),
  )
    ? null
    : url('NPI_REGISTRY_URL', isProduction ? NPPES_API_URL : '', ['https:', 'http:']);
  // Its answers decide whether a claim's provider is accepted: in production only over TLS.
  if (isProduction && npiRegistryUrl?.startsWith('http:')) {
    problems.push('NPI_REGISTRY_URL: must be https:// when NODE_ENV=production (or off)');
  }

  const smtpRaw = env.SMTP_URL?.trim();
  let smtpUrl: string | null = null;
  if (smtpRaw) smtpUrl = url('SMTP_URL', smtpRaw, ['smtp:', 'smtps:']);
  // Claim e-mails carry patient data: production mail goes over TLS (smtps://, or STARTTLS required).
  if (isProduction && smtpUrl && !smtpRequiresTls(smtpUrl)) {
    problems.push(
      'SMTP_URL: must use TLS when NODE_ENV=production: smtps://, or smtp://...?requireTLS=true',
    );
  }
  const trustProxy = parseTrustProxy(str('TRUST_PROXY', 'loopback'), problems);
  const mailFrom = str('MAIL_FROM', 'Vision Eligibility <no-reply@vision.localhost>');
  const mailDir = str('MAIL_DIR', 'var/mail');

  const sessionSecret = str('SESSION_SECRET', isProduction ? '' : DEV_SESSION_SECRET);
  if (isProduction && !env.SESSION_SECRET?.trim()) {
    problems.push('SESSION_SECRET: required when NODE_ENV=production');
  } else if (sessionSecret.length < 16) {
    problems.push('SESSION_SECRET: must be at least 16 characters');
  }

  const webhookRetrySchedule = retrySchedule(
    str('WEBHOOK_RETRY_SCHEDULE', DEFAULT_RETRY_SCHEDULE),
    problems,
  );

  const clearinghouse = loadClearinghouseConfig(env, isProduction, problems);
  const config: AppConfig = {
    nodeEnv,
    isProduction,
    role,
    port,
    publicUrl,
    databaseUrl,
    databasePoolSize: int('DATABASE_POOL_SIZE', 20, 1, 500),
    ...loadDatabaseSettings(env, databaseUrl, problems, isProduction),
    ...loadLauncherSettings(env),
    ...loadQueueSettings(env, problems),
    redisUrl,
    redisPrefix,
    logLevel,
    logFormat: logFormat as AppConfig['logFormat'],
    smtpUrl,
    mailFrom,
    mailDir,
    ...loadEncryptionKeys(env, isProduction, problems),
    sessionSecret,
    rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
    // Defaults to the shared limit (an invalid RATE_LIMIT_PER_MINUTE is reported just above).
    rateLimitFallbackPerMinute: int(
      'RATE_LIMIT_FALLBACK_PER_MINUTE',
      Number(env.RATE_LIMIT_PER_MINUTE?.trim() || 600) || 600,
      1,
      10_000_000,
    ),
    rateLimitUnauthenticatedPerMinute: int('RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE', 120, 1, 1e7),
    costLimits: loadCostLimits(env, problems),
    processHeartbeatMs: int('PROCESS_HEARTBEAT_MS', 2_000, 100, 60_000),
    shutdownDelayMs: int('SHUTDOWN_DELAY_MS', 0, 0, 60_000),
    webhookAllowPrivate: bool('WEBHOOK_ALLOW_PRIVATE', !isProduction),
    webhookRetrySchedule,
    webhookTimeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    demoSeed: bool('DEMO_SEED', !isProduction),
    docsPublic: bool('DOCS_PUBLIC', !isProduction),
    npiRegistryUrl,
    npiRegistryTimeoutMs: int('NPI_REGISTRY_TIMEOUT_MS', 3_000, 100, 60_000),
    eligibilityWatchdogSeconds: int('ELIGIBILITY_WATCHDOG_SECONDS', 300, 5, 86_400),
    verificationLeaseMinutes: int('VERIFICATION_LEASE_MINUTES', 30, 1, 1_440),
    verificationSlaMinutes: int('VERIFICATION_SLA_MINUTES', 240, 1, 43_200),
    verificationReuseHours: int('VERIFICATION_REUSE_HOURS', 72, 0, 720),
    maintenanceIntervalMs: int('MAINTENANCE_INTERVAL_MS', 10_000, 100, 3_600_000),
    searchRetryBaseMs: int('SEARCH_RETRY_BASE_MS', 1_000, 10, 600_000),
    clearinghouse,
    claims: loadClaimsConfig(env, isProduction, clearinghouse, problems),
    insurerTimeoutMs: int('INSURER_TIMEOUT_MS', 30_000, 50, 300_000),
    phiRetentionDays: env.PHI_RETENTION_DAYS?.trim()
      ? int('PHI_RETENTION_DAYS', 0, 1, 36_500)
      : null,
    apiKeyCacheSeconds: int('API_KEY_CACHE_SECONDS', 30, 0, 3600),
    webConcurrency: int('WEB_CONCURRENCY', processes, 1, 64),
    insurerConcurrency: int('INSURER_CONCURRENCY', 10, 1, 1000),
    trustProxy,
    allowInsecureHttp,
    passwordHashCost: int(
      'PASSWORD_HASH_COST',
      DEFAULT_PASSWORD_HASH_COST,
      isProduction ? DEFAULT_PASSWORD_HASH_COST : 10,
      MAX_PASSWORD_HASH_COST,
    ),
    tracing: loadTracingConfig(env, problems),
    metrics: loadMetricsConfig(env, port, problems),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

export { smtpRequiresTls } from './env-parts';

/** Nest's ConfigModule `validate` hook: returns the typed config under the `app` key. */
export function validateEnv(env: Env): { app: AppConfig } {
  return { app: loadConfig(env) };
}

/** `worker` and `all` processes run the queue workers and maintenance loops; `api` only adds jobs. */
export function runsWorkers(config: Pick<AppConfig, 'role'>): boolean {
  return config.role !== 'api';
}
