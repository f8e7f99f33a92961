import { X12ParseError } from './x12.errors';
import { readInterchange } from './x12.envelope';
import { read277ca, type ClaimAcknowledgmentReport } from './x277ca.reader';
import { read835, type Remittance } from './x835.reader';
import {
  read999,
  readTa1,
  type GroupAcknowledgment,
  type InterchangeAcknowledgment,
} from './x999.reader';

/** What a clearinghouse report says, whichever kind it is (docs/api.md, Claim reports and remittances). */
export interface ClaimReport {
  /** `999` (with any TA1), `TA1` (a TA1 alone), `277` (277CA) or `835`. */
  type: '999' | 'TA1' | '277' | '835';
  /** ISA13 and ISA06 of the report itself. */
  controlNumber: string;
  senderId: string;
  interchangeAcknowledgments: InterchangeAcknowledgment[];
  groupAcknowledgments: GroupAcknowledgment[];
  claimAcknowledgments: ClaimAcknowledgmentReport[];
  remittances: Remittance[];
  /** Envelope slips and remittances that do not balance: read anyway, kept for the operator. */
  warnings: string[];
}

const GROUP_TYPES: Record<string, string> = { FA: '999', HN: '277', HP: '835' };

/**
 * Reads a 999, TA1, 277CA or 835 interchange. One interchange carries one kind of report (its
 * groups' sets all 999, all 277 or all 835); a TA1 may precede the groups. Anything else, or a
 * malformed file, is an X12ParseError naming the segment.
 */
export function readClaimReport(text: string): ClaimReport {
  const interchange = readInterchange(text, { mode: 'report' });
  const report: ClaimReport = {
    type: 'TA1',
    controlNumber: interchange.isa.controlNumber,
    senderId: interchange.isa.senderId,
    interchangeAcknowledgments: interchange.ta1.map(readTa1),
    groupAcknowledgments: [],
    claimAcknowledgments: [],
    remittances: [],
    warnings: [...interchange.slips],
  };
  const types = new Set<string>();
  for (const group of interchange.groups) {
    for (const set of group.transactions) {
      const expected = Object.hasOwn(GROUP_TYPES, group.functionalId)
        ? GROUP_TYPES[group.functionalId]
        : undefined;
      if (!['999', '277', '835'].includes(set.type))
        throw set.st.error(
          `transaction set ${set.type}: a claim report is a 999, a 277CA or an 835`,
        );
      if (expected && expected !== set.type)
        throw set.st.error(
          `transaction set ${set.type} in a functional group ${group.functionalId}, which holds ${expected}s`,
        );
      types.add(set.type);
      if (types.size > 1)
        throw set.st.error(
          `transaction set ${set.type} after a ${[...types][0]}: one report holds one kind of set`,
        );
      if (set.type === '999') report.groupAcknowledgments.push(...read999(set));
      else if (set.type === '277') report.claimAcknowledgments.push(read277ca(set));
      else {
        const remittance = read835(set);
        report.remittances.push(remittance);
        report.warnings.push(...remittance.warnings);
      }
    }
  }
  const [type] = [...types];
  if (type) report.type = type as ClaimReport['type'];
  else if (report.interchangeAcknowledgments.length === 0)
    throw new X12ParseError('X12: the interchange holds no report');
  return report;
}
