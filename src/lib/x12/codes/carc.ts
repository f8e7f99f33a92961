/**
 * Claim Adjustment Reason Codes (CARC, X12 code list 139), CAS02/05/08/... of an 835: the codes
 * vision remittances use most, in the list's words. A code not here reads "Unknown code X".
 */
export const CARC: Readonly<Record<string, string>> = {
  '1': 'Deductible Amount',
  '2': 'Coinsurance Amount',
  '3': 'Co-payment Amount',
  '4': 'The procedure code is inconsistent with the modifier used.',
  '5': 'The procedure code/type of bill is inconsistent with the place of service.',
  '6': "The procedure/revenue code is inconsistent with the patient's age.",
  '7': "The procedure/revenue code is inconsistent with the patient's gender.",
  '8': 'The procedure code is inconsistent with the provider type/specialty (taxonomy).',
  '9': "The diagnosis is inconsistent with the patient's age.",
  '11': 'The diagnosis is inconsistent with the procedure.',
  '16': 'Claim/service lacks information or has submission/billing error(s).',
  '18': 'Exact duplicate claim/service',
  '22': 'This care may be covered by another payer per coordination of benefits.',
  '23': 'The impact of prior payer(s) adjudication including payments and/or adjustments.',
  '24': 'Charges are covered under a capitation agreement/managed care plan.',
  '26': 'Expenses incurred prior to coverage.',
  '27': 'Expenses incurred after coverage terminated.',
  '29': 'The time limit for filing has expired.',
  '31': 'Patient cannot be identified as our insured.',
  '32': 'Our records indicate the patient is not an eligible dependent.',
  '33': 'Insured has no dependent coverage.',
  '35': 'Lifetime benefit maximum has been reached.',
  '39': 'Services denied at the time authorization/pre-certification was requested.',
  '45': 'Charge exceeds fee schedule/maximum allowable or contracted/legislated fee arrangement.',
  '49': 'This is a non-covered service because it is a routine/preventive exam or a diagnostic/screening procedure done in conjunction with a routine/preventive exam.',
  '50': "These are non-covered services because this is not deemed a 'medical necessity' by the payer.",
  '96': 'Non-covered charge(s).',
  '97': 'The benefit for this service is included in the payment/allowance for another service/procedure that has already been adjudicated.',
  '109':
    'Claim/service not covered by this payer/contractor. You must send the claim/service to the correct payer/contractor.',
  '119': 'Benefit maximum for this time period or occurrence has been reached.',
  '129': 'Prior processing information appears incorrect.',
  '140': 'Patient/Insured health identification number and name do not match.',
  '151':
    'Payment adjusted because the payer deems the information submitted does not support this many/frequency of services.',
  '167': 'This (these) diagnosis(es) is (are) not covered.',
  '170': 'Payment is denied when performed/billed by this type of provider.',
  '181': 'Procedure code was invalid on the date of service.',
  '182': 'Procedure modifier was invalid on the date of service.',
  '197': 'Precertification/authorization/notification/pre-treatment absent.',
  '204': "This service/equipment/drug is not covered under the patient's current benefit plan",
  '226':
    'Information requested from the Billing/Rendering Provider was not provided or not provided timely or was insufficient/incomplete.',
  '242': 'Services not provided by network/primary care providers.',
  '253': 'Sequestration - reduction in federal payment',
  A1: 'Claim/Service denied.',
  B7: 'This provider was not certified/eligible to be paid for this procedure/service on this date of service.',
  B13: 'Previously paid. Payment for this claim/service may have been provided in a previous payment.',
};

/** Claim adjustment group codes (CAS01). */
export const ADJUSTMENT_GROUPS: Readonly<Record<string, string>> = {
  CO: 'Contractual Obligations',
  CR: 'Correction and Reversals',
  OA: 'Other adjustments',
  PI: 'Payor Initiated Reductions',
  PR: 'Patient Responsibility',
};
