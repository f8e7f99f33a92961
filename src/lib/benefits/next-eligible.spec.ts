import { availableOn, nextEligible } from './next-eligible';
import type { FrequencyRule, NextEligibleInput, ServiceRecord } from './next-eligible.types';

/** Worked examples of docs/api.md, Next eligible dates (the properties are in the .property spec). */

const FRAMES = 'materials.frames';
const LENSES = 'materials.spectacle_lenses';
const CONTACTS = 'materials.contact_lenses';
const EXAM = 'exam.routine';

const rolling = (code: string, months: number, rest: Partial<FrequencyRule> = {}) => ({
  benefit_code: code,
  frequency: { count: 1, period: { kind: 'rolling' as const, months } },
  ...rest,
});

function one(input: Partial<NextEligibleInput> & Pick<NextEligibleInput, 'rules'>, code?: string) {
  const all = nextEligible({ as_of: '2026-01-15', history: [], ...input });
  return all.find((r) => r.benefit_code === (code ?? input.rules[0].benefit_code))!;
}

describe('next eligible dates, worked examples', () => {
  it('counts a rolling period from the last service, month ends clamped', () => {
    const r = one({
      as_of: '2025-01-31',
      rules: [rolling(EXAM, 1)],
      history: [{ benefit_code: EXAM, date: '2025-01-31', source: 'claim' }],
    });
    expect(r.next_eligible).toEqual({
      date: '2025-02-28',
      basis: 'computed',
      explanation: [
        'Routine exam: once every 1 month, counted from the last service.',
        'The last service that counts was on 2025-01-31; a new one is allowed from 2025-02-28, ' +
          '1 month after it.',
      ],
    });
    expect(r.last_service).toEqual({ date: '2025-01-31', source: 'claim' });
  });

  it('makes frames unavailable for 24 months after contact lenses in lieu of them', () => {
    const rules = [
      rolling(FRAMES, 24, {
        frequency: { count: 1, period: { kind: 'rolling', months: 24 }, shared_with: [CONTACTS] },
      }),
      rolling(CONTACTS, 12),
    ];
    const history: ServiceRecord[] = [{ benefit_code: CONTACTS, date: '2025-03-10' }];
    const [frames, contacts] = nextEligible({ as_of: '2026-01-15', rules, history });
    expect(frames.next_eligible).toEqual({
      date: '2027-03-10',
      basis: 'computed',
      explanation: [
        'Frames: once every 24 months, counted from the last service.',
        'Services of contact lenses count against it too (shared benefits).',
        'The last service that counts was on 2025-03-10 (contact lenses); a new one is allowed ' +
          'from 2027-03-10, 24 months after it.',
      ],
    });
    // The frames themselves were never had: their last service stays empty.
    expect(frames.last_service).toBeNull();
    // Sharing is mutual: the contact-lens rule counts frames too, though only frames name it.
    expect(contacts.next_eligible.explanation[1]).toBe(
      'Services of frames count against it too (shared benefits).',
    );
    expect(contacts.next_eligible.date).toBe('2026-03-10');
    expect(availableOn(frames, '2027-03-09')).toBe(false);
    expect(availableOn(frames, '2027-03-10')).toBe(true);
  });

  it('resets a calendar-year rule on 1 January, and says since when it has been available', () => {
    const rule = {
      benefit_code: LENSES,
      frequency: { count: 1, period: { kind: 'calendar_year' as const } },
    };
    const history = [{ benefit_code: `${LENSES}.single_vision`, date: '2025-12-30' }];
    expect(one({ as_of: '2025-12-31', rules: [rule], history }).next_eligible.date).toBe(
      '2026-01-01',
    );
    const later = one({ as_of: '2026-05-04', rules: [rule], history });
    expect(later.next_eligible.date).toBe('2026-05-04');
    expect(later.next_eligible.explanation).toContain(
      'It has been available since 2026-01-01, so it is available on 2026-05-04.',
    );
    // A lens of a type counts for the spectacle-lens rule; it is the lenses' own last service.
    expect(later.last_service).toEqual({ date: '2025-12-30', source: 'staff' });
  });

  it('counts every other calendar year from 1 January of the year of the service', () => {
    const rule = {
      benefit_code: FRAMES,
      frequency: { count: 1, period: { kind: 'calendar_year' as const, months: 24 } },
    };
    const r = one({ rules: [rule], history: [{ benefit_code: FRAMES, date: '2025-11-02' }] });
    expect(r.next_eligible.date).toBe('2027-01-01');
  });

  it('starts plan years on the anniversary of a 29 February begin date, clamped and kept', () => {
    const rule = {
      benefit_code: EXAM,
      frequency: { count: 1, period: { kind: 'plan_year' as const } },
    };
    const plan = { begin_date: '2024-02-29', end_date: '2029-02-27' };
    const at = (date: string) =>
      one({ as_of: date, rules: [rule], plan, history: [{ benefit_code: EXAM, date }] })
        .next_eligible.date;
    expect(at('2024-03-01')).toBe('2025-02-28');
    expect(at('2027-03-01')).toBe('2028-02-29');
    expect(at('2025-02-27')).toBe('2025-02-28');
  });

  it('allows two services per period with count 2; the third waits for the oldest to age out', () => {
    const rule = {
      benefit_code: CONTACTS,
      frequency: { count: 2, period: { kind: 'rolling' as const, months: 12 } },
    };
    const first = [{ benefit_code: CONTACTS, date: '2025-02-01' }];
    expect(one({ as_of: '2025-02-01', rules: [rule], history: first }).next_eligible.date).toBe(
      '2025-02-01',
    );
    const both = [...first, { benefit_code: CONTACTS, date: '2025-08-01' }];
    const r = one({ as_of: '2025-08-01', rules: [rule], history: both });
    expect(r.next_eligible.date).toBe('2026-02-01');
    expect(r.next_eligible.explanation[1]).toBe(
      'The oldest of the 2 most recent services that count was on 2025-02-01; it stops counting ' +
        'on 2026-02-01, 12 months after it.',
    );
  });

  it('counts a claim and its remittance for the same day once', () => {
    const rule = {
      benefit_code: CONTACTS,
      frequency: { count: 2, period: { kind: 'rolling' as const, months: 12 } },
    };
    const history: ServiceRecord[] = [
      { benefit_code: CONTACTS, date: '2025-02-01', source: 'claim' },
      { benefit_code: CONTACTS, date: '2025-02-01', source: 'remittance' },
    ];
    const r = one({ as_of: '2025-02-01', rules: [rule], history });
    expect(r.next_eligible.date).toBe('2025-02-01');
    expect(r.last_service).toEqual({ date: '2025-02-01', source: 'remittance' });
  });

  it('lets a payer-stated date win and names both dates when they disagree', () => {
    const r = one({
      rules: [rolling(EXAM, 12, { payer_next_eligible_date: '2026-03-01' })],
      history: [{ benefit_code: EXAM, date: '2025-04-20', source: 'payer' }],
    });
    expect(r.next_eligible.date).toBe('2026-03-01');
    expect(r.next_eligible.basis).toBe('payer_stated');
    expect(r.next_eligible.explanation.slice(0, 2)).toEqual([
      'The payer states it is available from 2026-03-01.',
      "The frequency and the services on record give 2026-04-20 instead; the payer's date, " +
        '2026-03-01, is used.',
    ]);
  });

  it('agrees with a payer date in the past when the computation also says available now', () => {
    const r = one({
      rules: [rolling(EXAM, 12, { payer_next_eligible_date: '2025-12-01' })],
      history: [{ benefit_code: EXAM, date: '2024-11-20', source: 'payer' }],
    });
    expect(r.next_eligible.date).toBe('2025-12-01');
    expect(r.next_eligible.basis).toBe('payer_stated');
    expect(r.next_eligible.explanation[1]).toBe(
      'The frequency and the services on record also make it available on 2026-01-15.',
    );
    expect(availableOn(r, '2026-01-15')).toBe(true);
  });

  it("sets aside a payer's date older than a service on record after it", () => {
    const r = one({
      rules: [rolling(EXAM, 12, { payer_next_eligible_date: '2025-06-01' })],
      history: [{ benefit_code: EXAM, date: '2025-09-15', source: 'claim' }],
    });
    expect(r.next_eligible.date).toBe('2026-09-15');
    expect(r.next_eligible.basis).toBe('computed');
    expect(r.next_eligible.explanation[0]).toMatch(/^The payer states 2025-06-01, but a service/);
  });

  it('says a date past the plan end is not under this plan, and answers false after the end', () => {
    const r = one({
      rules: [rolling(FRAMES, 24)],
      plan: { begin_date: '2025-01-01', end_date: '2026-12-31' },
      history: [{ benefit_code: FRAMES, date: '2025-05-05' }],
    });
    expect(r.next_eligible.date).toBe('2027-05-05');
    expect(r.next_eligible.explanation).toContain(
      '2027-05-05 is after the plan ends on 2026-12-31: not under this plan.',
    );
    expect(availableOn(r, '2027-06-01')).toBe(false);
    expect(availableOn(r, '2026-06-01')).toBe(false);
    // A day before the question's as_of is not answered.
    expect(availableOn(r, '2025-12-31')).toBeNull();
  });

  it('waits for the plan to begin when asked before it', () => {
    const r = one({
      as_of: '2025-11-01',
      rules: [rolling(EXAM, 12)],
      plan: { begin_date: '2026-01-01' },
    });
    expect(r.next_eligible.date).toBe('2026-01-01');
    expect(r.next_eligible.explanation).toContain(
      'The plan begins on 2026-01-01, so not before then.',
    );
  });

  it('answers unknown, never a guess, without a frequency or a plan-year begin date', () => {
    const none = one({ rules: [{ benefit_code: EXAM }] });
    expect(none.next_eligible).toEqual({
      date: null,
      basis: 'unknown',
      explanation: [
        'The plan states no frequency for this benefit, so the date cannot be computed.',
      ],
    });
    expect(availableOn(none, '2026-02-01')).toBeNull();
    const planYear = one({
      rules: [{ benefit_code: EXAM, frequency: { count: 1, period: { kind: 'plan_year' } } }],
    });
    expect(planYear.next_eligible.basis).toBe('unknown');
    expect(planYear.next_eligible.explanation).toContain(
      "A plan-year period needs the plan's begin date, so the date cannot be computed.",
    );
    // A payer-stated date still answers without a frequency.
    const stated = one({ rules: [{ benefit_code: EXAM, payer_next_eligible_date: '2026-04-01' }] });
    expect(stated.next_eligible).toEqual({
      date: '2026-04-01',
      basis: 'payer_stated',
      explanation: [
        'The payer states it is available from 2026-04-01.',
        'The plan states no frequency for this benefit, so the date cannot be computed.',
      ],
    });
  });

  it('is available on as_of when no service counts', () => {
    const r = one({
      rules: [rolling(EXAM, 12)],
      history: [{ benefit_code: FRAMES, date: '2025-12-01' }],
    });
    expect(r.next_eligible.date).toBe('2026-01-15');
    expect(r.last_service).toBeNull();
    expect(availableOn(r, '2026-01-15')).toBe(true);
  });
});
