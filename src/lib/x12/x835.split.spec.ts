import { readClaimReport } from './claim-report.reader';
import { split835 } from './x835.split';
import { report } from '../../../test/x12/report-files';

const SEVERAL = report('835-several-claims.x12');
const CLAIMS = ['CLM-1001', 'CLM-1002', 'CLM-1003', 'UNKNOWN-77'];
/** NM1*QC of each claim of 835-several-claims.x12: a part must not name another's patient. */
const PATIENTS: Record<string, string> = {
  'CLM-1001': 'DOE*JANE',
  'CLM-1002': 'ROE*RICHARD',
  'CLM-1003': 'POE*EDGAR',
  'UNKNOWN-77': 'NOBODY*ANNA',
};

const owners =
  (map: Record<string, string>) =>
  (clp01: string): string | null =>
    map[clp01] ?? null;

describe('splitting a polled 835 per account', () => {
  it('gives each account only its claims, re-enveloped, with BPR02 its own total and no PLB when two accounts share the set', () => {
    const parts = split835(SEVERAL, owners({ 'CLM-1001': 'a', 'CLM-1003': 'a', 'CLM-1002': 'b' }));
    expect([...parts.keys()].sort()).toEqual(['a', 'b']);
    const a = readClaimReport(parts.get('a')!);
    expect(a.warnings).toEqual([]);
    expect(a.remittances).toHaveLength(1);
    expect(a.remittances[0].claims.map((c) => c.patientControlNumber)).toEqual([
      'CLM-1001',
      'CLM-1003',
    ]);
    expect(a.remittances[0]).toMatchObject({
      paymentAmount: '180',
      traceNumber: 'EFT20260115A',
      payerName: 'VISION BENEFITS PLAN',
      providerAdjustments: [],
    });
    expect(parts.get('a')).not.toMatch(/ROE|RICHARD|NOBODY|UNKNOWN-77|CLM-1002|PLB/);
    expect(parts.get('a')).toContain('SE*38*0001~\nGE*1*201~\nIEA*1*000000201~\n');
    const b = readClaimReport(parts.get('b')!);
    expect(b.warnings).toEqual([]);
    expect(b.remittances[0].claims.map((c) => c.patientControlNumber)).toEqual(['CLM-1002']);
    expect(b.remittances[0].paymentAmount).toBe('0');
    expect(parts.get('b')).not.toMatch(/DOE|POE|NOBODY|CLM-1001|CLM-1003|UNKNOWN-77/);
  });

  it("gives the PLB to the one account whose claims the set pays, less from that account's BPR02", () => {
    const parts = split835(SEVERAL, owners({ 'CLM-1001': 'a', 'CLM-1002': 'a' }));
    expect([...parts.keys()]).toEqual(['a']);
    const [r] = readClaimReport(parts.get('a')!).remittances;
    expect(r.claims.map((c) => c.patientControlNumber)).toEqual(['CLM-1001', 'CLM-1002']);
    expect(r.paymentAmount).toBe('170');
    expect(r.providerAdjustments).toMatchObject([{ reason: 'WO', amount: '10' }]);
    expect(r.warnings).toEqual([]);
  });

  it('gives an interchange whose every claim is one account back as it came', () => {
    const all = Object.fromEntries(CLAIMS.map((c) => [c, 'a']));
    expect(split835(SEVERAL, owners(all))).toEqual(new Map([['a', SEVERAL]]));
  });

  it('leaves out a set without any of the account, and counts GE01 again', () => {
    const parts = split835(
      report('835-two-sets.x12'),
      owners({ 'CLM-2001': 'a', 'CLM-2002': 'b' }),
    );
    for (const [account, code, trace] of [
      ['a', 'CLM-2001', 'CHK70001'],
      ['b', 'CLM-2002', 'NOPAY70002'],
    ]) {
      const r = readClaimReport(parts.get(account)!);
      expect(r.warnings).toEqual([]);
      expect(r.remittances.map((m) => m.traceNumber)).toEqual([trace]);
      expect(r.remittances[0].claims.map((c) => c.patientControlNumber)).toEqual([code]);
      expect(parts.get(account)).toContain('GE*1*203~');
    }
  });

  it('gives nobody a part when no claim is known', () => {
    expect(split835(SEVERAL, () => null).size).toBe(0);
  });

  // Every way of sharing the four claims among two accounts and nobody (3^4 = 81).
  it('puts every known claim in its own account part only, each part balanced, whatever the owners', () => {
    const choices = ['a', 'b', null] as const;
    for (let n = 0; n < 3 ** CLAIMS.length; n++) {
      const map: Record<string, string> = {};
      CLAIMS.forEach((c, i) => {
        const owner = choices[Math.floor(n / 3 ** i) % 3];
        if (owner) map[c] = owner;
      });
      const parts = split835(SEVERAL, owners(map));
      expect([...parts.keys()].sort()).toEqual([...new Set(Object.values(map))].sort());
      for (const [account, text] of parts) {
        const read = readClaimReport(text);
        const mine = CLAIMS.filter((c) => map[c] === account);
        expect(read.warnings).toEqual([]);
        expect(read.remittances[0].claims.map((c) => c.patientControlNumber)).toEqual(mine);
        for (const c of CLAIMS.filter((c) => map[c] !== account)) {
          expect(text).not.toContain(`CLP*${c}*`);
          expect(text).not.toContain(PATIENTS[c]);
        }
      }
    }
  });
});
