import { type Env, optionalReaders } from './env-parts';
import { KNOWN_INSURER_CODES } from '@/lib/insurer-codes';

/**
 * Clearinghouse settings of docs/api.md, Real insurers, parsed from the environment by loadConfig. Kept apart
 * from env.ts so the X12 settings read as one block.
 */
export type ClearinghouseAuth =
  | { kind: 'api_key'; apiKey: string }
  | { kind: 'oauth2'; tokenUrl: string; clientId: string; clientSecret: string };

export interface ClearinghouseConfig {
  /** Null: no real insurer is reachable (their searches end `insurer_problem`). */
  eligibilityUrl: string | null;
  auth: ClearinghouseAuth | null;
  /** ISA06/GS02, ISA08/GS03, ISA15. */
  submitterId: string;
  receiverId: string;
  usage: 'T' | 'P';
  /** Insurer code → payer id (NM109 of 2100A): an insurer with one is asked over X12. */
  payerIds: Readonly<Record<string, string>>;
  /** Insurer code → the EQ01 service types to send; insurers not listed send `30`. */
  serviceTypes: Readonly<Record<string, readonly string[]>>;
  /**
   * Insurer code → the EQ01 service types of a details request (the deepest the payer honours);
   * insurers not listed send `AL` (vision, which every 5010 payer must answer when asked).
   */
  detailServiceTypes: Readonly<Record<string, readonly string[]>>;
}

const SANDBOX = 'insurer:demo:vision';

/** Payers known to answer 270s on the clearinghouse networks (shared/research/payer-connectivity.md). */
const DEFAULT_PAYER_IDS: Readonly<Record<string, string>> = {
  'insurer:vision:davis_vision': 'QKZWY',
  'insurer:vision:spectera': 'ZNIZJ',
};
export const DEFAULT_SERVICE_TYPES: readonly string[] = ['30'];
export const DEFAULT_DETAIL_SERVICE_TYPES: readonly string[] = ['AL'];

export function loadClearinghouseConfig(
  env: Env,
  isProduction: boolean,
  problems: string[],
): ClearinghouseConfig {
  const { get, url } = optionalReaders(env, isProduction, problems);
  const eligibilityUrl = url('CLEARINGHOUSE_ELIGIBILITY_URL');
  const tokenUrl = url('CLEARINGHOUSE_TOKEN_URL');

  const apiKey = get('CLEARINGHOUSE_API_KEY');
  const clientId = get('CLEARINGHOUSE_CLIENT_ID');
  const clientSecret = get('CLEARINGHOUSE_CLIENT_SECRET');
  const oauthNames = [
    'CLEARINGHOUSE_TOKEN_URL',
    'CLEARINGHOUSE_CLIENT_ID',
    'CLEARINGHOUSE_CLIENT_SECRET',
  ];
  const oauthMissing = oauthNames.filter((name) => get(name) === null);
  let auth: ClearinghouseAuth | null = null;
  if (apiKey && oauthMissing.length < 3) {
    problems.push(
      'CLEARINGHOUSE_API_KEY: set either it or CLEARINGHOUSE_TOKEN_URL/CLIENT_ID/CLIENT_SECRET, not both',
    );
  } else if (apiKey) {
    auth = { kind: 'api_key', apiKey };
  } else if (oauthMissing.length > 0 && oauthMissing.length < 3) {
    problems.push(`${oauthMissing.join(', ')}: OAuth2 client credentials need all three settings`);
  } else if (tokenUrl && clientId && clientSecret) {
    auth = { kind: 'oauth2', tokenUrl, clientId, clientSecret };
  } else if (eligibilityUrl && oauthMissing.length === 3) {
    problems.push(
      'CLEARINGHOUSE_API_KEY: required (or CLEARINGHOUSE_TOKEN_URL/CLIENT_ID/CLIENT_SECRET) when CLEARINGHOUSE_ELIGIBILITY_URL is set',
    );
  }

  const submitterId = get('X12_SUBMITTER_ID') ?? '';
  const receiverId = get('X12_RECEIVER_ID') ?? '';
  for (const [name, value] of [
    ['X12_SUBMITTER_ID', submitterId],
    ['X12_RECEIVER_ID', receiverId],
  ]) {
    if (value && !/^[A-Za-z0-9 ]{1,15}$/.test(value)) {
      problems.push(`${name}: 1 to 15 letters, digits or spaces (got "${value}")`);
    } else if (!value && eligibilityUrl) {
      problems.push(`${name}: required when CLEARINGHOUSE_ELIGIBILITY_URL is set`);
    }
  }
  const usageRaw = get('X12_USAGE') ?? (isProduction ? 'P' : 'T');
  if (usageRaw !== 'T' && usageRaw !== 'P') {
    problems.push(`X12_USAGE: must be T (test) or P (production) (got "${usageRaw}")`);
  }

  const payerIds: Record<string, string> = { ...DEFAULT_PAYER_IDS };
  for (const [code, value] of pairs('INSURER_PAYER_IDS', get('INSURER_PAYER_IDS'), problems)) {
    if (value === '') delete payerIds[code];
    else if (/^[A-Za-z0-9]{1,80}$/.test(value)) payerIds[code] = value;
    else
      problems.push(
        `INSURER_PAYER_IDS: payer id of ${code} must be 1 to 80 letters or digits (got "${value}")`,
      );
  }
  const serviceTypes = serviceTypeMap('INSURER_SERVICE_TYPES', get, problems);
  const detailServiceTypes = serviceTypeMap('INSURER_DETAIL_SERVICE_TYPES', get, problems);

  return {
    eligibilityUrl,
    auth,
    submitterId,
    receiverId,
    usage: usageRaw === 'P' ? 'P' : 'T',
    payerIds,
    serviceTypes,
    detailServiceTypes,
  };
}

/** `code=STC^STC,...` → service types by insurer code. */
function serviceTypeMap(
  name: string,
  get: (name: string) => string | null,
  problems: string[],
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [code, value] of pairs(name, get(name), problems)) {
    const types = value.split('^').map((t) => t.trim().toUpperCase());
    if (types.every((t) => /^[A-Z0-9]{1,2}$/.test(t)) && types.length <= 99) out[code] = types;
    else
      problems.push(`${name}: service types of ${code} must be codes joined by ^ (got "${value}")`);
  }
  return out;
}

/** `code=value,code=value`: each code a known real insurer (the sandbox never goes to X12). */
function pairs(name: string, raw: string | null, problems: string[]): [string, string][] {
  if (raw === null) return [];
  const out: [string, string][] = [];
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    const code = eq === -1 ? part : part.slice(0, eq).trim();
    if (eq === -1) problems.push(`${name}: "${part}" is not code=value`);
    else if (code === SANDBOX) problems.push(`${name}: ${SANDBOX} is the sandbox, it has no payer`);
    else if (!KNOWN_INSURER_CODES.includes(code))
      problems.push(`${name}: unknown insurer code ${code}`);
    else out.push([code, part.slice(eq + 1).trim()]);
  }
  return out;
}
