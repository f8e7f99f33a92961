import type { AppointmentResponse } from '../api/dto/appointment.response';
import { DEFAULT_APPOINTMENT_POLICY } from '../domain/appointment-policies.service';
import { COVERAGE_STATES } from '../domain/appointment-words';
import { dayAfter, dayFields, dayUrl, dayWindow } from './schedule-day';
import { changeWords, COVERAGE_WORDS, scheduleRows } from './schedule-view';

const NOW = new Date('2026-11-24T12:00:00Z');

function appointment(overrides: Partial<AppointmentResponse> = {}): AppointmentResponse {
  return {
    external_id: 'A-1',
    starts_at: '2026-11-24T15:00:00.000+00:00',
    ends_at: '2026-11-24T15:30:00.000+00:00',
    status: 'booked',
    location_code: 'LOC1',
    services: [],
    patient_code: null,
    patient: {
      first_name: 'Maria',
      last_name: 'Garcia',
      dob: '1984-06-15',
      zipcode: '78701',
      ssn_last_four: null,
      member_id: null,
      subscriber: null,
    },
    insurer_codes: ['insurer:demo:vision'],
    source_updated_at: null,
    created_at: '2026-11-20T00:00:00.000+00:00',
    updated_at: '2026-11-20T00:00:00.000+00:00',
    coverage: {
      state: 'not_checked',
      stale: false,
      checked_at: null,
      fresh_until: null,
      next_check_at: null,
      request_uid: null,
      changes: [],
      benefits: null,
      detail: null,
    },
    ...overrides,
  };
}

const row = (overrides: Partial<AppointmentResponse> = {}) =>
  scheduleRows([appointment(overrides)], DEFAULT_APPOINTMENT_POLICY, NOW)[0];

describe('the Schedule page in words', () => {
  it('gives every coverage state its own words', () => {
    const words = COVERAGE_STATES.map((s) => COVERAGE_WORDS[s]);
    expect(new Set(words).size).toBe(COVERAGE_STATES.length);
    expect(COVERAGE_WORDS.active).toBe('Active');
    expect(COVERAGE_WORDS.waiting_for_person).toBe('Waiting for a person');
  });

  it('shows a row: its time, patient, insurers, status and coverage', () => {
    expect(row()).toMatchObject({
      external_id: 'A-1',
      time: '15:00–15:30',
      patient_name: 'Maria Garcia',
      patient_code: null,
      insurers: 'Demo Vision (sandbox)',
      status: 'Booked',
      state: 'not_checked',
      state_words: 'Not checked',
      benefits: null,
      changes: [],
      checkable: true,
    });
    expect(row({ ends_at: null, patient: null, patient_code: 'PAT1' })).toMatchObject({
      time: '15:00',
      patient_name: null,
      patient_code: 'PAT1',
    });
  });

  it('offers "Check now" only for a visit to come, of a status the policy checks', () => {
    expect(row({ starts_at: '2026-11-24T11:59:00.000+00:00' }).checkable).toBe(false);
    for (const status of ['cancelled', 'noshow', 'fulfilled'] as const)
      expect({ status, checkable: row({ status }).checkable }).toEqual({
        status,
        checkable: false,
      });
    expect(row({ status: 'arrived' }).checkable).toBe(true);
  });

  it("shows the time in the location's time zone, else at the offset the visit was sent with", () => {
    // 14:30 at −06:00 is 20:30 UTC.
    const visit = appointment({
      starts_at: '2026-11-24T20:30:00.000+00:00',
      ends_at: '2026-11-24T21:00:00.000+00:00',
    });
    const at = (context: Parameters<typeof scheduleRows>[3]) =>
      scheduleRows([visit], DEFAULT_APPOINTMENT_POLICY, NOW, context)[0];
    expect(at({ timeZone: 'America/Chicago' })).toMatchObject({ time: '14:30–15:00', zone: 'CST' });
    expect(at({ timeZone: null, offsets: new Map([['A-1', -360]]) })).toMatchObject({
      time: '14:30–15:00',
      zone: 'UTC−06:00',
    });
    expect(at({ timeZone: null, offsets: new Map([['A-1', 330]]) }).time).toBe('02:00–02:30');
    expect(at({ timeZone: null })).toMatchObject({ time: '20:30–21:00', zone: 'UTC' });
  });

  it("names a patient record's patient, and shows a cancelled visit as cancelled, never as covered", () => {
    const names = new Map([['PAT1', 'rosa diaz']]);
    const r = scheduleRows(
      [
        appointment({
          patient: null,
          patient_code: 'PAT1',
          status: 'cancelled',
          coverage: { ...appointment().coverage, state: 'active', stale: true },
        }),
      ],
      DEFAULT_APPOINTMENT_POLICY,
      NOW,
      { timeZone: null, names },
    )[0];
    expect(r).toMatchObject({
      patient_name: 'rosa diaz',
      name_of_record: true,
      cancelled: true,
      state_words: 'Visit cancelled',
      stale: true,
    });
  });

  it('lists the four benefits on the visit date in words, with copay and allowance in dollars', () => {
    const benefits = {
      exam: { available: true, next_eligible_date: null, copayment: '10.0000', allowance: null },
      frames: {
        available: false,
        next_eligible_date: '2027-01-01',
        copayment: null,
        allowance: '150.0000',
      },
      spectacle_lenses: {
        available: null,
        next_eligible_date: null,
        copayment: '25',
        allowance: 'see plan',
      },
      contact_lenses: {
        available: null,
        next_eligible_date: null,
        copayment: null,
        allowance: null,
      },
    };
    const r = row({ coverage: { ...appointment().coverage, state: 'active', benefits } });
    expect(r.benefits).toEqual([
      { name: 'Exam', words: 'available', copay: '$10.00', allowance: null },
      {
        name: 'Frames',
        words: 'not available until January 1, 2027',
        copay: null,
        allowance: '$150.00',
      },
      { name: 'Lenses', words: 'not stated by the plan', copay: '$25.00', allowance: 'see plan' },
      { name: 'Contacts', words: 'not stated by the plan', copay: null, allowance: null },
    ]);
    // An inactive plan: nothing is covered, whatever date a benefit names (the visit's own one).
    const inactive = row({
      coverage: {
        ...appointment().coverage,
        state: 'inactive',
        benefits: {
          ...benefits,
          frames: { ...benefits.frames, next_eligible_date: '2026-11-24' },
        },
      },
    });
    expect(inactive.benefits![1].words).toBe('not covered (plan inactive)');
    // A date on or before the visit is no wait: the benefit is not covered.
    const used = row({
      coverage: {
        ...appointment().coverage,
        state: 'active',
        benefits: { ...benefits, frames: { ...benefits.frames, next_eligible_date: '2026-11-24' } },
      },
    });
    expect(used.benefits![1].words).toBe('not covered');
  });

  it.each([
    [{ field: 'state', before: 'active', after: 'inactive' }, 'state: active → inactive'],
    [
      { field: 'state', before: 'waiting_for_person', after: 'no_plan' },
      'state: waiting for a person → no plan',
    ],
    [
      { field: 'benefits.frames.available', before: true, after: false },
      'Frames available: yes → no',
    ],
    [
      { field: 'benefits.exam.copayment', before: '10.0000', after: '25.0000' },
      'Exam copay: $10.00 → $25.00',
    ],
    [
      { field: 'benefits.contact_lenses.allowance', before: '130.0000', after: null },
      'Contacts allowance: $130.00 → none',
    ],
    [{ field: 'plan_name', before: 'A', after: null }, 'plan_name: A → none'],
    [null, 'coverage: none → none'],
  ])('says the change %j as %j', (change, words) => {
    expect(changeWords(change)).toBe(words);
  });
});

describe("the Schedule page's day", () => {
  it('spans a UTC day, month and year ends and a leap day included', () => {
    expect(dayWindow('2026-11-24')).toEqual({
      from: '2026-11-24T00:00:00Z',
      to: '2026-11-25T00:00:00Z',
    });
    expect(dayWindow('2026-12-31').to).toBe('2027-01-01T00:00:00Z');
    expect(dayWindow('2028-02-28').to).toBe('2028-02-29T00:00:00Z');
    expect(dayAfter('2026-03-01', -1)).toBe('2026-02-28');
  });

  it("spans the location's own day when it names a time zone, clock changes included", () => {
    expect(dayWindow('2026-11-24', 'America/Chicago')).toEqual({
      from: '2026-11-24T06:00:00.000Z',
      to: '2026-11-25T06:00:00.000Z',
    });
    // 8 March 2026: Chicago's clocks go forward, a day of 23 hours.
    expect(dayWindow('2026-03-08', 'America/Chicago')).toEqual({
      from: '2026-03-08T06:00:00.000Z',
      to: '2026-03-09T05:00:00.000Z',
    });
  });

  it('keeps strings of a query only, and builds its own address', () => {
    expect(dayFields({ date: '2026-11-24', location: ['a', 'b'] })).toEqual({
      date: '2026-11-24',
      location: undefined,
    });
    expect(dayUrl({ date: '2026-11-24', location: 'LOC 1&x' })).toBe(
      '/app/schedule/?date=2026-11-24&location=LOC+1%26x',
    );
    expect(dayUrl({})).toBe('/app/schedule/');
  });
});
