import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
// Plain JS shared with jest.config.js and global-setup.js.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { MARKS, ROOT, TIERS, tierFiles } = require('./support/tiers') as {
  MARKS: string[];
  ROOT: string;
  TIERS: Record<string, string[]>;
  tierFiles: (tier: string) => { unit: string[]; e2e: string[] };
};

/**
 * The test tiers of jest.config.js: every spec file under src/ and test/ runs in exactly one
 * tier, chosen by the mark in its name, and a spec that reaches what a tier provides says so.
 */
function specFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : specFiles(path);
    return /\.([a-z0-9]+-)?spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

const all = [...specFiles(join(ROOT, 'src')), ...specFiles(join(ROOT, 'test'))];
const inTier = (tier: string) => {
  const { unit, e2e } = tierFiles(tier);
  const regexes = [...unit, ...e2e].map((r) => new RegExp(r));
  return all.filter((f) => regexes.some((r) => r.test(f)));
};
const markOf = (file: string) =>
  MARKS.find((m) => new RegExp(`\\.${m}\\.(medium\\.spec|spec|e2e-spec)\\.ts$`).test(file)) ?? '';

describe('the test tiers (jest.config.js)', () => {
  it('are the ones jest.config.js runs', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const config = require('../jest.config.js') as { projects: { testRegex: string[] }[] };
    const files = tierFiles(process.env.TEST_TIER ?? '');
    expect(config.projects.map((p) => p.testRegex)).toEqual([files.unit, files.e2e]);
  });

  it('put every spec file in exactly one tier', () => {
    const tiers = Object.keys(TIERS).map(inTier);
    const counted = new Map(all.map((f) => [f, 0]));
    for (const files of tiers) for (const f of files) counted.set(f, counted.get(f)! + 1);
    const wrong = [...counted]
      .filter(([, n]) => n !== 1)
      .map(([f, n]) => `${relative(ROOT, f)}: ${n}`);
    expect(wrong).toEqual([]);
    expect(tiers.every((files) => files.length > 0)).toBe(true);
  });

  it('mark what a spec reaches: PostgreSQL, Chromium, a tool', () => {
    const needs: [RegExp, string[]][] = [
      [
        /support\/(app|module|postgres-source|state|built-service|cli)'/,
        ['pg', 'redis', 'browser', 'tools'],
      ],
      [/support\/browser'/, ['browser', 'tools']],
      [/support\/prometheus'|'\/usr\/bin\/python3'|pdftotext'|\('psql'/, ['tools']],
    ];
    const wrong = all.flatMap((f) => {
      if (f === __filename) return [];
      const text = readFileSync(f, 'utf8');
      const mark = markOf(f);
      return needs
        .filter(([uses, marks]) => uses.test(text) && !marks.includes(mark))
        .map(([uses]) => `${relative(ROOT, f)} (${uses.source})`);
    });
    expect(wrong).toEqual([]);
  });
});
