import type { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { DbQueueSpec } from './db-queue-spec';
import { rowsDueWithin } from './lease-recovery';
import type { LocalLane } from './local-lane';

/**
 * Without Redis (docs/configuration.md, Database and Redis), what keeps a process's lane fed from its queue's table, so work
 * starts when it is due rather than at the next sweep: as a run ends with nothing waiting, the
 * lane takes the next due rows (`attach`); a sweep gives the lane the rows due before the next
 * one, each at its time (`ahead`). Rows are not claimed here: a run leases its row, so a row
 * several processes take runs once.
 */
export class LaneFeed {
  private pulling = false;

  constructor(
    private readonly db: DataSource,
    private readonly spec: DbQueueSpec,
    private readonly redisDown: () => boolean,
    private readonly log: Logger,
  ) {}

  attach(lane: LocalLane): void {
    lane.onRoom = (room) => void this.pull(lane, room);
  }

  async ahead(lane: LocalLane, aheadMs: number, limit: number): Promise<void> {
    for (const r of await rowsDueWithin(this.db, this.spec, aheadMs, limit))
      lane.offerAt(r.id, r.delayMs);
  }

  private async pull(lane: LocalLane, room: number): Promise<void> {
    if (!this.redisDown() || this.pulling) return;
    this.pulling = true;
    try {
      for (const r of await rowsDueWithin(this.db, this.spec, 0, room)) lane.offer(r.id);
    } catch (e) {
      this.log.warn({ err: (e as Error).message }, 'due rows not read; the sweeper will');
    } finally {
      this.pulling = false;
    }
  }
}
