import { GroupCommit } from '@/platform/kernel/group-commit';
import type {
  EligibilityRequestsRepository,
  IntakeRow,
  IntakeStored,
} from '../../store/eligibility-requests.repository';

export type { IntakeRow, IntakeStored } from '../../store/eligibility-requests.repository';

/**
 * Stores intake's requests, group-committed: the requests accepted while an INSERT is in flight
 * go out together in the next one (one statement and one commit for many POSTs; a lone request
 * is written at once: `EligibilityRequestsRepository.insertIntake`). A refused statement (a
 * duplicate uid, usually) is tried again request by request, so only the refused request fails,
 * with the database's error.
 */
export class IntakeWriter {
  private readonly group: GroupCommit<IntakeRow, IntakeStored | undefined>;

  constructor(
    private readonly requests: EligibilityRequestsRepository,
    private readonly leaseMs: number,
    /** The registered process leases name (ProcessRegistry), when registered. */
    private readonly owner: () => string | null = () => null,
  ) {
    this.group = new GroupCommit((rows) => this.insert(rows), { maxBatch: 64, maxInFlight: 4 });
  }

  /** The stored row, or undefined when the request's location does not exist (nothing stored). */
  store(row: IntakeRow): Promise<IntakeStored | undefined> {
    return this.group.add(row);
  }

  private async insert(rows: IntakeRow[]): Promise<(IntakeStored | undefined)[]> {
    const stored = await this.requests.insertIntake(rows, this.leaseMs, this.owner());
    // (account, uid) is unique: a batch holding the same twice is refused, then tried one by one.
    const byKey = new Map(stored.map((s) => [`${s.accountId} ${s.uid}`, s]));
    return rows.map((r) => byKey.get(`${r.accountId} ${r.uid}`));
  }
}
