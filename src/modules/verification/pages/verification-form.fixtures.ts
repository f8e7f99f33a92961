import type { AskedPatient } from '@/modules/verification/domain/verified-plans';

/** Fixtures of the benefit form's specs (its body's and its saved-plan side's). */

/** The patient as a task's search asked for them (no subscriber). */
export const ASKED: AskedPatient = {
  first_name: 'Maria',
  last_name: 'Garcia',
  dob: '1984-06-15',
  zipcode: '78701',
  member_id: 'VSP104882211',
  ssn_last_four: null,
  subscriber: null,
};

export const filled: Record<string, string> = {
  status: 'active',
  plan_name: 'VSP Choice',
  plan_group: 'Acme Manufacturing',
  plan_group_id: 'GRP-104233',
  plan_begin_date: '2026-01-01',
  plan_end_date: '2026-12-31',
  plan_refresh_date: '2027-01-01',
  oon_benefits: 'oon',
  p0_first_name: 'Maria',
  p0_last_name: 'Garcia',
  p0_dob: '1984-06-15',
  p0_sex: 'female',
  p0_member_id: 'VSP104882211',
  p0_relationship: 'self',
  p0_address_line1: '412 Oak Street',
  p0_address_line2: '',
  p0_address_city: 'Austin',
  p0_address_state: 'tx',
  p0_address_zipcode: '78701',
  p0_phone: '512-555-0142',
  exam_inn_copay: '10',
  exam_oon_allowance: '$45.50',
  exam_inn_quantity: '1',
  exam_inn_frequency: '12',
  frames_inn_allowance: '150',
  frames_oon_allowance: '70',
  frames_inn_frequency: '24',
  lens_single_vision_inn_copay: '25',
  cl_elective_inn_allowance: '1,130.00',
  opt_anti_reflective_inn_copay: '41',
  // A row left blank (spaces count as blank).
  lens_bifocal_inn_copay: '  ',
  evidence_source: 'portal',
  evidence_reference_number: 'REF-9',
  evidence_representative: '',
  evidence_checked_at: '2026-11-24T15:04:00Z',
};
