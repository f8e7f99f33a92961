import fc from 'fast-check';
import { nextEligibleDates } from './estimate.availability';
import { line, plan } from '../../../../test/support/estimate.fixtures';
import { estimateReimbursement } from './estimate.rules';

/** A day between 2020 and 2031, `YYYY-MM-DD`. */
const dayArb = fc
  .integer({ min: 0, max: 4000 })
  .map((n) => new Date(Date.UTC(2020, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));

/**
 * docs/api.md, Estimates: a benefit not yet available on the date of service (today when none is
 * given) pays nothing, and its line says why.
 */
describe('estimates on a date of service', () => {
  it('reimburses nothing for a benefit not yet eligible again on the date of service, and pays it from that day', () => {
    const waiting = plan({
      frames: { last_service_date: '2025-08-31', next_eligible_date: '2027-08-31' },
    });
    const frame = [line(['V2020'], '180')];
    const before = estimateReimbursement(waiting, 'oon', frame, { dateOfService: '2026-03-15' });
    expect(before.lines[0]).toMatchObject({ cap: '0.0000', capped: '0.0000' });
    expect(before.lines[0].notes).toContain(
      'not eligible until 2027-08-31 (last used 2025-08-31), after the date of service 2026-03-15: not reimbursed',
    );
    expect(before.patient_responsibility).toBe('180.0000');
    const on = estimateReimbursement(waiting, 'oon', frame, { dateOfService: '2027-08-31' });
    expect(on.lines[0].capped).not.toBe('0.0000');
    // Without a date of service, the estimate is for today.
    const later = plan({ frames: { next_eligible_date: '2999-01-01' } });
    expect(estimateReimbursement(later, 'oon', frame).lines[0].notes).toContain(
      'not eligible until 2999-01-01: not reimbursed',
    );
  });

  it("goes by the item's next_eligible object before its next_eligible_date (docs/api.md, Next eligible dates)", () => {
    const frame = [line(['V2020'], '180')];
    const stated = plan({ frames: { next_eligible_date: '2026-01-01' } });
    const objects = nextEligibleDates([
      {
        benefit_code: 'materials',
        items: [{ benefit_code: 'materials.frames', next_eligible: { date: '2026-09-01' } }],
      },
    ]);
    expect(objects).toEqual(new Map([['materials.frames', '2026-09-01']]));
    const held = estimateReimbursement(stated, 'oon', frame, {
      dateOfService: '2026-06-01',
      nextEligible: objects,
    });
    expect(held.lines[0].capped).toBe('0.0000');
    expect(held.lines[0].notes[1]).toBe(
      'not eligible until 2026-09-01, after the date of service 2026-06-01: not reimbursed',
    );
    // An object whose date is not known holds nothing back, whatever the plain date said.
    const unknown = nextEligibleDates([
      { benefit_code: 'materials.frames', next_eligible: { date: null } },
    ]);
    const waiting = plan({ frames: { next_eligible_date: '2027-08-31' } });
    expect(
      estimateReimbursement(waiting, 'oon', frame, {
        dateOfService: '2026-06-01',
        nextEligible: unknown,
      }).lines[0].capped,
    ).not.toBe('0.0000');
  });

  it('pays a benefit on its next eligible date and after, never before (any day against any date)', () => {
    fc.assert(
      fc.property(dayArb, dayArb, (next, visit) => {
        const e = estimateReimbursement(
          plan({ frames: { next_eligible_date: next } }),
          'oon',
          [line(['V2020'], '180')],
          { dateOfService: visit },
        );
        expect(e.lines[0].capped === '0.0000').toBe(visit < next);
      }),
    );
  });
});
