import type { Queryable } from './pg-pool';

/**
 * Ids of one PostgreSQL sequence, taken `size` at a time (one round trip per block, not per
 * row). The ids a process takes and never uses are gaps, as a rolled-back `nextval` leaves; ids
 * stay unique, and the ids of one `take` ascend.
 */
export class SequenceBlock {
  private ids: string[] = [];
  private filling: Promise<void> | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly sequence: string,
    private readonly size = 100,
  ) {}

  async take(count: number): Promise<string[]> {
    const taken: string[] = [];
    while (taken.length < count) {
      if (this.ids.length === 0) await this.fill(Math.max(this.size, count - taken.length));
      taken.push(...this.ids.splice(0, count - taken.length));
    }
    return taken;
  }

  /** One block at a time: concurrent takers wait for the same one. */
  private fill(count: number): Promise<void> {
    this.filling ??= this.db
      .query<{ id: string }[]>(
        'SELECT nextval($1::regclass)::text AS id FROM generate_series(1, $2)',
        [this.sequence, count],
      )
      .then((rows) => {
        this.ids.push(...rows.map((r) => r.id));
      })
      .finally(() => {
        this.filling = null;
      });
    return this.filling;
  }
}
