import type { Network } from '@/lib/benefits';

/** One service line to estimate: money as a decimal string (at most four decimals). */
export interface EstimateServiceInput {
  codes: string[];
  /** Estimate on this benefit instead of mapping the codes. */
  benefit_code?: string | null;
  /** Cost of one unit. */
  cost: string;
  quantity: number;
}

/** The answer of docs/api.md, Estimates: money as four-decimal strings. */
export interface Estimate {
  network: Network;
  total_cost: string;
  estimated_reimbursement: string;
  patient_responsibility: string;
  groups: EstimateGroup[];
  lines: EstimateLine[];
}

export interface EstimateGroup {
  benefit_code: string;
  copayment: string;
  max_after_copayment: string;
  sum_of_caps: string;
  reimbursement: string;
}

export interface EstimateLine {
  index: number;
  codes: string[];
  /** The benefit the line was estimated on; null when its codes map to none. */
  benefit_code: string | null;
  cost: string;
  quantity: number;
  charge: string;
  /** The allowance left for this line; null when no allowance applies. */
  cap: string | null;
  capped: string;
  notes: string[];
}
