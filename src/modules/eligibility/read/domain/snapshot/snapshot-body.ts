import type { StreetAddress } from '@/lib/person';
import type { InsurerEntry } from '../../../domain/insurer-entries';
import type { SnapshotPlanJson } from './snapshot-benefits';

/** A check's V2 answer as the snapshot reads it (docs/api.md, V1 and V2 results). */
export interface SnapshotBody {
  status: string;
  error_code: string | null;
  error_detail: string | null;
  purged?: true;
  results: SnapshotResult[] | null;
  insurers?: InsurerEntry[];
}

export interface SnapshotResult {
  id: number;
  status: string;
  plan_name: string;
  plan_group: string;
  plan_group_id: string | null;
  plan_begin_date: string;
  plan_end_date: string | null;
  plan_refresh_date: string | null;
  insurer_code: string;
  persons: SnapshotPerson[];
}

export interface SnapshotPerson {
  id: number;
  full_name: string;
  dob: string;
  sex: string | null;
  member_id: string | null;
  type: string;
  address: StreetAddress | null;
  is_active: boolean | null;
  plan: SnapshotPlanJson;
}
