import { spawnSync } from 'node:child_process';

/**
 * The advisory check (`npm run advisories`, run by .ci/run): `npm audit --omit=dev --json`, read
 * and said plainly. Production dependencies only: they are what the image ships (the Dockerfile
 * prunes the rest). Fails at AUDIT_LEVEL (default `high`) or above. When the registry cannot
 * answer the audit endpoint (offline, or a mirror that serves packages but not advisories) it says
 * that the check was not done and does not fail, unless ADVISORIES_REQUIRED=true: a red build for
 * a missing network would teach people to ignore it.
 */

export const SEVERITIES = ['info', 'low', 'moderate', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Verdict {
  /** `checked`: the registry answered; `not-done`: it did not, nothing was checked. */
  outcome: 'checked' | 'not-done';
  failed: boolean;
  lines: string[];
}

interface Advisory {
  title?: string;
  url?: string;
  severity?: string;
  range?: string;
}
interface Vulnerable {
  name: string;
  severity: Severity;
  isDirect?: boolean;
  range?: string;
  via?: (Advisory | string)[];
  fixAvailable?: boolean | { name: string; version: string; isSemVerMajor?: boolean };
}

const rank = (s: string) => SEVERITIES.indexOf(s as Severity);

/** Reads npm audit's JSON (`stdout`) into a verdict; `failAt` is the lowest failing severity. */
export function judgeAudit(stdout: string, failAt: Severity = 'high', required = false): Verdict {
  let report: any;
  try {
    report = JSON.parse(stdout);
  } catch {
    report = undefined;
  }
  if (!report || typeof report.vulnerabilities !== 'object' || report.vulnerabilities === null) {
    const why =
      report?.message ?? report?.error?.summary ?? (stdout.trim().slice(0, 200) || 'no answer');
    return {
      outcome: 'not-done',
      failed: required,
      lines: [
        `Advisory check NOT DONE: the registry did not answer npm's audit endpoint (${why}).`,
        'No dependency was checked against known advisories. Run `npm audit --omit=dev` where the registry answers audit requests.',
      ],
    };
  }
  const found = Object.values(report.vulnerabilities as Record<string, Vulnerable>).sort(
    (a, b) => rank(b.severity) - rank(a.severity) || a.name.localeCompare(b.name),
  );
  const prod = report.metadata?.dependencies?.prod;
  if (found.length === 0) {
    return {
      outcome: 'checked',
      failed: false,
      lines: [
        `Advisory check: no known advisory affects the production packages${prod === undefined ? '' : ` (${prod})`}.`,
      ],
    };
  }
  const counts = SEVERITIES.filter((s) => found.some((v) => v.severity === s))
    .reverse()
    .map((s) => `${found.filter((v) => v.severity === s).length} ${s}`)
    .join(', ');
  const failing = found.filter((v) => rank(v.severity) >= rank(failAt));
  return {
    outcome: 'checked',
    failed: failing.length > 0,
    lines: [
      `Advisory check: ${found.length} production package(s) with known advisories (${counts}); failing at ${failAt} or above: ${failing.length}.`,
      ...found.map(describe),
    ],
  };
}

function describe(v: Vulnerable): string {
  const advisories = (v.via ?? []).filter((a): a is Advisory => typeof a === 'object');
  const through = (v.via ?? []).filter((a): a is string => typeof a === 'string');
  const what = advisories.length
    ? advisories.map((a) => `${a.title ?? 'advisory'}${a.url ? ` (${a.url})` : ''}`).join('; ')
    : `through ${through.join(', ')}`;
  const fix = v.fixAvailable;
  const remedy =
    fix === true
      ? 'fix: npm audit fix'
      : fix && typeof fix === 'object'
        ? `fix: ${fix.name}@${fix.version}${fix.isSemVerMajor ? ' (a major version)' : ''}`
        : 'no fix yet';
  const kind = v.isDirect ? 'direct' : 'transitive';
  return `  ${v.severity.padEnd(8)} ${v.name} ${v.range ?? ''} (${kind}): ${what}; ${remedy}`;
}

function main(): void {
  const failAt = (process.env.AUDIT_LEVEL?.trim() || 'high') as Severity;
  if (!SEVERITIES.includes(failAt)) {
    process.stderr.write(`AUDIT_LEVEL: one of ${SEVERITIES.join(', ')} (got "${failAt}")\n`);
    process.exit(2);
  }
  // npm audit exits non-zero when it finds something: its JSON says what, so the status is ignored.
  const audit = spawnSync('npm', ['audit', '--omit=dev', '--json'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  const verdict = judgeAudit(
    audit.stdout ?? '',
    failAt,
    process.env.ADVISORIES_REQUIRED === 'true',
  );
  process.stdout.write(`${verdict.lines.join('\n')}\n`);
  process.exit(verdict.failed ? 1 : 0);
}

if (require.main === module) main();
