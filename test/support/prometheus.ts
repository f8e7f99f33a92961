import { execFileSync } from 'node:child_process';

/** One sample line of a scrape: `name{label="value",...} number`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * The samples of a Prometheus text scrape (the format's grammar is checked by promtool,
 * `checkWithPromtool`); a line that is neither a comment nor a sample fails the test.
 */
export function samplesOf(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]] = l[2];
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

/** The sum of `name`'s samples whose labels include `where`. */
export function total(samples: Sample[], name: string, where: Record<string, string> = {}) {
  return samples
    .filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((n, s) => n + s.value, 0);
}

/**
 * prom-client's runtime gauges whose names promtool's naming lint dislikes (`_total` on a
 * gauge): the library's names, which dashboards know, not ours.
 */
const LIBRARY_NAMES = new Set([
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
]);

/**
 * Debian's promtool (scripts/ensure-promtool.sh; `npm run test:tools` installs it) reads the
 * scrape with Prometheus' own parser and lints its names: answers its complaints (empty when
 * none), a parse error always, a naming one unless about prom-client's own runtime names.
 */
export function checkWithPromtool(text: string): string {
  let said: string;
  try {
    said = execFileSync('promtool', ['check', 'metrics'], {
      input: text,
      stdio: 'pipe',
    }).toString();
  } catch (e) {
    const err = e as { stdout?: Buffer; stderr?: Buffer; message: string };
    said = `${err.stdout?.toString() ?? ''}${err.stderr?.toString() ?? ''}` || err.message;
  }
  return said
    .split('\n')
    .filter((line) => line.trim() !== '' && !LIBRARY_NAMES.has(line.split(' ')[0]))
    .join('\n');
}
