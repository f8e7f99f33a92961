import { ALL_OPEN, lineOf, quote } from '../../../../test/support/quote.fixtures';

describe('priceOrder: what follows what, and availability', () => {
  it('covers no lens option when the order has no lenses, saying why', () => {
    const answer = quote({
      lens_options: [{ option: 'anti_reflective_standard', retail: '90.00' }],
    });
    expect(answer.lines).toEqual([
      {
        item: 'anti_reflective_standard',
        code: 'V2750',
        retail: '90.0000',
        plan_covers: '0.0000',
        patient_pays: '90.0000',
        reason:
          'lens options follow the lenses, and the order has no lenses: the plan covers nothing; the patient pays the retail $90.00',
      },
    ]);
  });

  it('covers no fitting when the order has no contact lenses', () => {
    const line = lineOf(quote({ fitting: { kind: 'standard', retail: '80.00' } }), 'fitting');
    expect(line).toMatchObject({ patient_pays: '80.0000', plan_covers: '0.0000' });
    expect(line.reason).toContain('the fitting follows the contact lenses');
  });

  it('covers nothing for a benefit not available, saying until when; options follow the lenses', () => {
    const answer = quote(
      {
        frame: { retail: '220.00' },
        lenses: { type: 'single_vision', retail: '120.00' },
        lens_options: [{ option: 'anti_reflective_standard', retail: '90.00' }],
      },
      {
        availability: {
          ...ALL_OPEN,
          spectacle_lenses: { available: false, until: '2027-03-15' },
        },
      },
    );
    expect(lineOf(answer, 'frame').patient_pays).toBe('56.0000');
    expect(lineOf(answer, 'lenses')).toMatchObject({
      patient_pays: '120.0000',
      plan_covers: '0.0000',
      reason:
        'spectacle lenses not available until 2027-03-15: the plan covers nothing; the patient pays the retail $120.00',
    });
    expect(lineOf(answer, 'anti_reflective_standard')).toMatchObject({
      code: 'V2750',
      patient_pays: '90.0000',
      reason:
        'spectacle lenses not available until 2027-03-15: the plan covers nothing; the patient pays the retail $90.00',
    });
    expect(answer.patient_pays).toBe('266.0000');
  });

  it('knows what a benefit not available costs even where the list is silent', () => {
    const answer = quote(
      {
        contact_lenses: { kind: 'medically_necessary', retail: '300.00' },
        fitting: { kind: 'standard', retail: '50.00' },
      },
      { availability: { ...ALL_OPEN, contact_lenses: { available: false, until: null } } },
    );
    expect(answer.not_estimable).toEqual([]);
    expect(lineOf(answer, 'contact_lenses').reason).toBe(
      'contact lenses not available now (the date it is available again is not known): the plan covers nothing; the patient pays the retail $300.00',
    );
    expect(answer.patient_pays).toBe('350.0000');
  });
});
