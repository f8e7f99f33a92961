/**
 * The codes of 999 (005010X231A1) and TA1 acknowledgements: IK304 segment errors, IK403 element
 * errors, IK5/AK9 acknowledgement codes and syntax errors, TA104/TA105, complete as the guides
 * list them. A code not here reads "Unknown code X".
 */
export const SEGMENT_ERRORS: Readonly<Record<string, string>> = {
  '1': 'Unrecognized segment ID',
  '2': 'Unexpected segment',
  '3': 'Required Segment Missing',
  '4': 'Loop Occurs Over Maximum Times',
  '5': 'Segment Exceeds Maximum Use',
  '6': 'Segment Not in Defined Transaction Set',
  '7': 'Segment Not in Proper Sequence',
  '8': 'Segment Has Data Element Errors',
  I4: 'Implementation "Not Used" Segment Present',
  I6: 'Implementation Dependent Segment Missing',
  I7: 'Implementation Loop Occurs Under Minimum Times',
  I8: 'Implementation Segment Below Minimum Use',
  I9: 'Implementation Dependent "Not Used" Segment Present',
};

export const ELEMENT_ERRORS: Readonly<Record<string, string>> = {
  '1': 'Required Data Element Missing',
  '2': 'Conditional Required Data Element Missing',
  '3': 'Too Many Data Elements',
  '4': 'Data Element Too Short',
  '5': 'Data Element Too Long',
  '6': 'Invalid Character In Data Element',
  '7': 'Invalid Code Value',
  '8': 'Invalid Date',
  '9': 'Invalid Time',
  '10': 'Exclusion Condition Violated',
  '12': 'Too Many Repetitions',
  '13': 'Too Many Components',
  I6: 'Code Value Not Used in Implementation',
  I9: 'Implementation Dependent Data Element Missing',
  I10: 'Implementation "Not Used" Data Element Present',
  I11: 'Implementation Too Few Repetitions',
  I12: 'Implementation Pattern Match Failure',
  I13: 'Implementation Dependent "Not Used" Data Element Present',
};

/** IK501 and AK901. */
export const ACKNOWLEDGMENT_CODES: Readonly<Record<string, string>> = {
  A: 'Accepted',
  E: 'Accepted But Errors Were Noted',
  M: 'Rejected, Message Authentication Code (MAC) Failed',
  P: 'Partially Accepted, At Least One Transaction Set Was Rejected',
  R: 'Rejected',
  W: 'Rejected, Assurance Failed Validity Tests',
  X: 'Rejected, Content After Decryption Could Not Be Analyzed',
};

/** IK502-IK506. */
export const SET_SYNTAX_ERRORS: Readonly<Record<string, string>> = {
  '1': 'Transaction Set Not Supported',
  '2': 'Transaction Set Trailer Missing',
  '3': 'Transaction Set Control Number in Header and Trailer Do Not Match',
  '4': 'Number of Included Segments Does Not Match Actual Count',
  '5': 'One or More Segments in Error',
  '6': 'Missing or Invalid Transaction Set Identifier',
  '7': 'Missing or Invalid Transaction Set Control Number',
  '18': 'Transaction Set not in Functional Group',
  '19': 'Invalid Transaction Set Implementation Convention Reference',
  '23': 'Transaction Set Control Number Not Unique within the Functional Group',
  I5: 'Implementation One or More Segments in Error',
  I6: 'Implementation Convention Not Supported',
};

/** AK905-AK909. */
export const GROUP_SYNTAX_ERRORS: Readonly<Record<string, string>> = {
  '1': 'Functional Group Not Supported',
  '2': 'Functional Group Version Not Supported',
  '3': 'Functional Group Trailer Missing',
  '4': 'Group Control Number in the Functional Group Header and Trailer Do Not Agree',
  '5': 'Number of Included Transaction Sets Does Not Match Actual Count',
  '6': 'Group Control Number Violates Syntax',
  '19': 'Functional Group Control Number not Unique within Interchange',
};

/** TA105. */
export const INTERCHANGE_NOTES: Readonly<Record<string, string>> = {
  '000': 'No error',
  '001':
    'The Interchange Control Number in the Header and Trailer Do Not Match. The Value From the Header is Used in the Acknowledgment.',
  '002': 'This Standard as Noted in the Control Standards Identifier is Not Supported.',
  '003': 'This Version of the Controls is Not Supported',
  '004': 'The Segment Terminator is Invalid',
  '005': 'Invalid Interchange ID Qualifier for Sender',
  '006': 'Invalid Interchange Sender ID',
  '007': 'Invalid Interchange ID Qualifier for Receiver',
  '008': 'Invalid Interchange Receiver ID',
  '009': 'Unknown Interchange Receiver ID',
  '010': 'Invalid Authorization Information Qualifier Value',
  '011': 'Invalid Authorization Information Value',
  '012': 'Invalid Security Information Qualifier Value',
  '013': 'Invalid Security Information Value',
  '014': 'Invalid Interchange Date Value',
  '015': 'Invalid Interchange Time Value',
  '016': 'Invalid Interchange Standards Identifier Value',
  '017': 'Invalid Interchange Version ID Value',
  '018': 'Invalid Interchange Control Number Value',
  '019': 'Invalid Acknowledgment Requested Value',
  '020': 'Invalid Test Indicator Value',
  '021': 'Invalid Number of Included Groups Value',
  '022': 'Invalid Control Structure',
  '023': 'Improper (Premature) End-of-File (Transmission)',
  '024': 'Invalid Interchange Content (e.g., Invalid GS Segment)',
  '025': 'Duplicate Interchange Control Number',
  '026': 'Invalid Data Element Separator',
  '027': 'Invalid Component Element Separator',
};
