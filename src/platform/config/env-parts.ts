import { isIP } from 'node:net';

/**
 * Settings' parsers that env.ts uses: the environment readers (one problem line per bad
 * variable), the SMTP TLS rule and TRUST_PROXY. Kept apart so env.ts reads as the list of
 * settings.
 */

export type Env = Record<string, string | undefined>;

/** Readers of `env` that push one line per bad value to `problems` and answer the fallback. */
export function envReaders(env: Env, problems: string[]) {
  const str = (name: string, fallback: string): string => {
    const raw = env[name];
    return raw === undefined || raw.trim() === '' ? fallback : raw.trim();
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
      problems.push(`${name}: must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const v = raw.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    problems.push(`${name}: must be true or false (got "${raw}")`);
    return fallback;
  };
  const url = (name: string, fallback: string, protocols: string[]): string => {
    const value = str(name, fallback);
    try {
      const parsed = new URL(value);
      if (!protocols.includes(parsed.protocol)) {
        problems.push(`${name}: must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
      }
    } catch {
      problems.push(`${name}: must be a URL (got "${value}")`);
    }
    return value;
  };
  return { str, int, bool, url };
}

/**
 * An optional URL setting of the clearinghouse and claims blocks: null when unset; https only in
 * production, http too elsewhere (one problem line when it is neither).
 */
function optionalUrl(
  env: Env,
  name: string,
  isProduction: boolean,
  problems: string[],
): string | null {
  const value = env[name]?.trim() || null;
  if (value === null) return null;
  const allowed = isProduction ? ['https:'] : ['https:', 'http:'];
  try {
    if (allowed.includes(new URL(value).protocol)) return value;
    problems.push(`${name}: must use ${allowed.join(' or ')} (got "${value}")`);
  } catch {
    problems.push(`${name}: must be a URL (got "${value}")`);
  }
  return null;
}

/** smtps://, or smtp:// that refuses to send without STARTTLS (`requireTLS=true`). */
/** The clearinghouse and claims blocks' readers: a trimmed value or null, an optional URL. */
export function optionalReaders(env: Env, isProduction: boolean, problems: string[]) {
  return {
    get: (name: string): string | null => env[name]?.trim() || null,
    url: (name: string) => optionalUrl(env, name, isProduction, problems),
  };
}

export function smtpRequiresTls(smtpUrl: string): boolean {
  try {
    const parsed = new URL(smtpUrl);
    return (
      parsed.protocol === 'smtps:' ||
      ['true', '1'].includes((parsed.searchParams.get('requireTLS') ?? '').toLowerCase())
    );
  } catch {
    return false;
  }
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** `TRUST_PROXY`: a hop count (0 = trust nobody), or a comma list of names, addresses, CIDRs. */
export function parseTrustProxy(raw: string, problems: string[]): number | string[] {
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 20) problems.push(`TRUST_PROXY: a hop count from 0 to 20 (got "${raw}")`);
    return Math.min(hops, 20);
  }
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.filter((e) => !PROXY_NAMES.includes(e) && !isAddressOrCidr(e));
  if (entries.length === 0 || bad.length > 0) {
    problems.push(
      `TRUST_PROXY: a hop count, or a comma list of addresses, CIDRs, loopback, linklocal, uniquelocal (bad: "${bad.join(', ') || raw}")`,
    );
    return ['loopback'];
  }
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d+$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** WEBHOOK_RETRY_SCHEDULE: seconds between attempts, 1 to 50 of them, each up to a week. */
export function retrySchedule(raw: string, problems: string[]): number[] {
  const schedule = raw.split(',').map((s) => Number(s.trim()));
  if (
    schedule.length === 0 ||
    schedule.length > 50 ||
    schedule.some((n) => !Number.isFinite(n) || n < 0 || n > 7 * 86400)
  ) {
    problems.push(
      `WEBHOOK_RETRY_SCHEDULE: comma-separated seconds between attempts, each 0..604800 (got "${raw}")`,
    );
  }
  return schedule;
}
