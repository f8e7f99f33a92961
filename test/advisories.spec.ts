import { judgeAudit } from '../scripts/advisories';

/** What `npm audit --omit=dev --json` printed on a registry mirror that serves packages only. */
const MIRROR_405 = JSON.stringify({
  message:
    '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
  method: 'POST',
  statusCode: 405,
  body: '',
  error: { summary: '', detail: '' },
});

/** The shape of npm's audit report (auditReportVersion 2), two advisories. */
const REPORT = {
  auditReportVersion: 2,
  vulnerabilities: {
    'parse-thing': {
      name: 'parse-thing',
      severity: 'moderate',
      isDirect: false,
      via: ['uploader'],
      range: '<1.4.0',
      fixAvailable: true,
    },
    uploader: {
      name: 'uploader',
      severity: 'high',
      isDirect: true,
      via: [
        {
          title: 'Uploader crashes on a malformed boundary',
          url: 'https://advisories.example/GHSA-0000',
          severity: 'high',
          range: '<2.0.2',
        },
      ],
      range: '<2.0.2',
      fixAvailable: { name: 'uploader', version: '2.0.2', isSemVerMajor: false },
    },
  },
  metadata: {
    vulnerabilities: { info: 0, low: 0, moderate: 1, high: 1, critical: 0, total: 2 },
    dependencies: { prod: 212 },
  },
};

describe('the advisory check (scripts/advisories.ts)', () => {
  it('names each affected package, its advisory and fix, and fails at high', () => {
    const verdict = judgeAudit(JSON.stringify(REPORT));
    expect(verdict).toMatchObject({ outcome: 'checked', failed: true });
    expect(verdict.lines[0]).toBe(
      'Advisory check: 2 production package(s) with known advisories (1 high, 1 moderate); failing at high or above: 1.',
    );
    expect(verdict.lines[1]).toMatch(
      /^ {2}high +uploader <2\.0\.2 \(direct\): Uploader crashes on a malformed boundary \(https:\/\/advisories\.example\/GHSA-0000\); fix: uploader@2\.0\.2$/,
    );
    expect(verdict.lines[2]).toMatch(
      /moderate +parse-thing .*through uploader; fix: npm audit fix/,
    );
  });

  it('lists what is below AUDIT_LEVEL without failing', () => {
    const moderateOnly = {
      ...REPORT,
      vulnerabilities: { x: REPORT.vulnerabilities['parse-thing'] },
    };
    const verdict = judgeAudit(JSON.stringify(moderateOnly), 'high');
    expect(verdict).toMatchObject({ outcome: 'checked', failed: false });
    expect(verdict.lines.join('\n')).toContain('parse-thing');
    expect(judgeAudit(JSON.stringify(moderateOnly), 'moderate').failed).toBe(true);
  });

  it('says so when nothing is affected', () => {
    const clean = { ...REPORT, vulnerabilities: {} };
    expect(judgeAudit(JSON.stringify(clean))).toEqual({
      outcome: 'checked',
      failed: false,
      lines: ['Advisory check: no known advisory affects the production packages (212).'],
    });
  });

  it('says the check was not done when the registry cannot answer, red only when required', () => {
    for (const stdout of [MIRROR_405, '', 'npm error network ENOTFOUND']) {
      const verdict = judgeAudit(stdout);
      expect(verdict).toMatchObject({ outcome: 'not-done', failed: false });
      expect(verdict.lines[0]).toMatch(/^Advisory check NOT DONE: /);
      expect(verdict.lines.join(' ')).toContain('No dependency was checked');
      expect(judgeAudit(stdout, 'high', true).failed).toBe(true);
    }
    expect(judgeAudit(MIRROR_405).lines[0]).toContain('405 Method Not Allowed');
  });
});
