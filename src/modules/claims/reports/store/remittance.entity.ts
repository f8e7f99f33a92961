import { Column, Entity } from 'typeorm';
import { AccountRecord, CreatedAtColumn } from '@/platform/db/columns';
import type {
  RemittanceAdjustment,
  RemittanceRemark,
  RemittanceServiceLine,
} from '../../store/claim.entity';

/** One CLP of a remittance, as `GET .../remittances/{id}/` answers it. */
export interface RemittanceClaimEntry {
  /** The claim it was matched to by CLP01, or null (unmatched). */
  claim_code: string | null;
  patient_control_number: string;
  status_code: string;
  charge: string;
  paid_amount: string;
  patient_responsibility: string;
  payer_claim_control_number: string | null;
  patient_name: string;
  adjustments: RemittanceAdjustment[];
  remarks: RemittanceRemark[];
  service_lines: RemittanceServiceLine[];
}

export interface ProviderAdjustmentEntry {
  reason: string;
  reference: string;
  amount: string;
  fiscal_period_end: string;
}

/** An 835 payment (docs/api.md, Claim reports and remittances): stored once per (account, payer, TRN02). */
@Entity('remittances')
export class Remittance extends AccountRecord {
  @Column({ name: 'report_id', type: 'uuid' })
  reportId: string;

  @Column({ name: 'payer_id', type: 'varchar', length: 80 })
  payerId: string;

  @Column({ name: 'payer_name', type: 'varchar', length: 80 })
  payerName: string;

  @Column({ name: 'trace_number', type: 'varchar', length: 80 })
  traceNumber: string;

  @Column({ name: 'payment_amount', type: 'numeric', precision: 14, scale: 4 })
  paymentAmount: string;

  @Column({ name: 'payment_method', type: 'varchar', length: 3 })
  paymentMethod: string;

  @Column({ name: 'paid_at', type: 'date', nullable: true })
  paidAt: string | null;

  @Column({ type: 'jsonb' })
  claims: RemittanceClaimEntry[];

  @Column({ name: 'provider_adjustments', type: 'jsonb', default: () => "'[]'" })
  providerAdjustments: ProviderAdjustmentEntry[];

  @Column({ name: 'claims_matched', type: 'integer' })
  claimsMatched: number;

  @Column({ name: 'claims_unmatched', type: 'integer' })
  claimsUnmatched: number;

  @CreatedAtColumn({ ms: true })
  createdAt: Date;
}
