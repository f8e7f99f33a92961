import { Injectable } from '@nestjs/common';
import { formatInstant } from '@/platform/kernel/time';
import { PolledReportsRepository } from '../store/polled-reports.repository';

export interface UnmatchedRemittanceItem {
  id: string;
  report_id: string;
  external_id: string | null;
  kind: string;
  payer: { id: string; name: string };
  trace_number: string;
  /** CLP01, or PLB03-2 for a provider adjustment. */
  reference: string;
  amount: string;
  status_code: string | null;
  payer_claim_control_number: string | null;
  created_at: string;
}

/**
 * What polled 835s paid that no account owns (CLPs naming no claim, PLBs of a payment shared by
 * several accounts): the operator's to settle by hand (`npm run cli -- reports:unmatched`). No
 * tenant route reads it. Patients' names stay in the database, out of the listing.
 */
@Injectable()
export class UnmatchedRemittances {
  constructor(private readonly polled: PolledReportsRepository) {}

  async list(limit: number): Promise<UnmatchedRemittanceItem[]> {
    return (await this.polled.unmatched(limit)).map((u) => ({
      id: u.id,
      report_id: u.report_id,
      external_id: u.external_id,
      kind: u.kind,
      payer: { id: u.payer_id, name: u.payer_name },
      trace_number: u.trace_number,
      reference: u.reference,
      amount: u.amount,
      status_code: u.status_code,
      payer_claim_control_number: u.payer_claim_control_number,
      created_at: formatInstant(u.created_at, 'utc'),
    }));
  }
}
