/**
 * Remittance Advice Remark Codes (RARC, X12 code list 411), LQ*HE, MIA and MOA of an 835: common
 * codes, in the list's words. A code not here reads "Unknown code X".
 */
export const RARC: Readonly<Record<string, string>> = {
  M15: 'Separately billed services/tests have been bundled as they are considered components of the same procedure. Separate payment is not allowed.',
  M20: 'Missing/incomplete/invalid HCPCS.',
  M76: 'Missing/incomplete/invalid diagnosis or condition.',
  M86: 'Service denied because payment already made for same/similar procedure within set time frame.',
  MA04: 'Secondary payment cannot be considered without the identity of or payment information from the primary payer. The information was either not reported or was illegible.',
  MA130:
    'Your claim contains incomplete and/or invalid information, and no appeal rights are afforded because the claim is unprocessable. Please submit a new claim with the complete/correct information.',
  N20: 'Service not payable with other service rendered on the same date.',
  N56: 'Procedure code billed is not correct/valid for the services billed or the date of service billed.',
  N95: 'This provider type/provider specialty may not bill this service.',
  N130: 'Consult plan benefit documents/guidelines for information about restrictions for this service.',
  N362: 'The number of Days or Units of Service exceeds our acceptable maximum.',
  N381: 'Consult our contractual agreement for restrictions/billing/payment information related to these charges.',
  N425: 'Statutorily excluded service(s).',
};
