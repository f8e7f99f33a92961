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
    expect(COVERAGE_WORDS.stale).toBe('Stale');
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

  it('lists the four benefits on the visit date: yes, no (with when again) or unknown, in dollars', () => {
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
      {
        name: 'Exam',
        available: 'Yes',
        next_eligible_date: null,
        copay: '$10.00',
        allowance: null,
      },
      {
        name: 'Frames',
        available: 'No',
        next_eligible_date: '2027-01-01',
        copay: null,
        allowance: '$150.00',
      },
      {
        name: 'Lenses',
        available: 'Unknown',
        next_eligible_date: null,
        copay: '$25.00',
        allowance: 'see plan',
      },
      {
        name: 'Contacts',
        available: 'Unknown',
        next_eligible_date: null,
        copay: null,
        allowance: null,
      },
    ]);
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
