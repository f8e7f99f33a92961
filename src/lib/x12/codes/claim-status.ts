/**
 * The codes of a 277/277CA STC01: claim status categories (X12 code list 507), claim statuses
 * (list 508) and entity identifiers (element 98, STC01-3): those claim acknowledgements use most,
 * in the lists' words. A code not here reads "Unknown code X".
 */
export const CLAIM_STATUS_CATEGORIES: Readonly<Record<string, string>> = {
  A0: 'Acknowledgement/Forwarded-The claim/encounter has been forwarded to another entity.',
  A1: 'Acknowledgement/Receipt-The claim/encounter has been received. This does not mean that the claim has been accepted for adjudication.',
  A2: 'Acknowledgement/Acceptance into adjudication system-The claim/encounter has been accepted into the adjudication system.',
  A3: 'Acknowledgement/Returned as unprocessable claim-The claim/encounter has been rejected and has not been entered into the adjudication system.',
  A4: 'Acknowledgement/Not Found-The claim/encounter can not be found in the adjudication system.',
  A5: 'Acknowledgement/Split Claim-The claim/encounter has been split upon acceptance into the adjudication system.',
  A6: 'Acknowledgement/Rejected for Missing Information - The claim/encounter is missing the information specified in the Status details and has been rejected.',
  A7: 'Acknowledgement/Rejected for Invalid Information - The claim/encounter has invalid information as specified in the Status details and has been rejected.',
  A8: 'Acknowledgement / Rejected for relational field in error.',
  P0: 'Pending: Adjudication/Details-This is a generic message about a pended claim.',
  P1: 'Pending/In Process-The claim or encounter is in the adjudication system.',
  P2: 'Pending/Payer Review-The claim/encounter is suspended pending review.',
  P3: 'Pending/Provider Requested Information - The claim or encounter is waiting for information that has already been requested from the provider.',
  P4: 'Pending/Patient Requested Information - The claim or encounter is waiting for information that has already been requested from the patient.',
  F0: 'Finalized-The claim/encounter has completed the adjudication cycle and no more action will be taken.',
  F1: 'Finalized/Payment-The claim/line has been paid.',
  F2: 'Finalized/Denial-The claim/line has been denied.',
  F3: 'Finalized/Revised - Adjudication information has been changed',
  F4: 'Finalized/Adjudication Complete - No payment forthcoming-The claim/encounter has been adjudicated and no further payment is forthcoming.',
  E0: 'Response not possible - error on submitted request data',
  E1: 'Response not possible - System Status',
  D0: 'Data Search Unsuccessful - The payer is unable to return status on the requested claim(s) based on the submitted search criteria.',
};

export const CLAIM_STATUS_CODES: Readonly<Record<string, string>> = {
  '0': 'Cannot provide further status electronically.',
  '1': 'For more detailed information, see remittance advice.',
  '3': 'Claim has been adjudicated and is awaiting payment cycle.',
  '19': 'Entity acknowledges receipt of claim/encounter.',
  '20': 'Accepted for processing.',
  '21': 'Missing or invalid information.',
  '23': 'Returned to Entity.',
  '24': 'Entity not approved as an electronic submitter.',
  '26': 'Entity not found.',
  '27': 'Policy canceled.',
  '33': 'Subscriber and subscriber id not found.',
  '35': 'Claim/encounter not found.',
  '65': 'Claim/line has been paid.',
  '116': 'Claim submitted to the incorrect payer.',
  '158': "Entity's date of birth.",
  '164': "Entity's contract/member number.",
  '187': 'Date(s) of service.',
  '562': "Entity's National Provider Identifier (NPI).",
};

export const ENTITY_IDENTIFIERS: Readonly<Record<string, string>> = {
  '03': 'Dependent',
  '40': 'Receiver',
  '41': 'Submitter',
  '77': 'Service Location',
  '82': 'Rendering Provider',
  '85': 'Billing Provider',
  '87': 'Pay-to Provider',
  DN: 'Referring Provider',
  IL: 'Insured or Subscriber',
  PR: 'Payer',
  QC: 'Patient',
};
