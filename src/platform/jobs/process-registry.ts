import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import type { DbQueue } from './db-queue';
import { ServiceProcessesRepository } from './service-processes.repository';

/** A peer is dead when it has missed this many heartbeats. */
export const LAPSED_BEATS = 3;

/**
 * Every process registers in `service_processes` (host, pid, role) and heartbeats there every
 * PROCESS_HEARTBEAT_MS; every lease it takes names it (`lease_owner`). In processes that run
 * queues, each heartbeat (and the start) also looks for dead peers: a heartbeat older than three
 * intervals, or a process of this host whose pid is gone (a kill -9 and restart is seen at
 * once). Their rows are removed and their leases released at once (due now, the attempt given
 * back) and re-enqueued; so are the leases of owners no longer registered (a graceful stop
 * deregisters). A process judges others only after its own heartbeats have succeeded for three
 * intervals, so a PostgreSQL outage that stopped every heartbeat does not make its peers look dead.
 */
@Injectable()
export class ProcessRegistry implements OnModuleInit {
  readonly id = randomUUID();
  private readonly logger = new Logger(ProcessRegistry.name);
  private readonly host = hostname().slice(0, 255);
  private readonly lapseMs: number;
  private timer: NodeJS.Timeout | null = null;
  private registered = false;
  private stopped = false;
  /** When a heartbeat last failed (0: never). */
  private lastFailure = 0;
  private queues: DbQueue[] = [];
  private reaps = false;
  private reaping: Promise<void> | null = null;

  constructor(
    private readonly processes: ServiceProcessesRepository,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    this.lapseMs = config.processHeartbeatMs * LAPSED_BEATS;
  }

  async onModuleInit(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.tick(), this.config.processHeartbeatMs);
    this.timer.unref();
  }

  /**
   * The queues whose leases name this process once it is registered; with `reap` (a process that
   * runs them), dead peers' leases are released now and after every heartbeat.
   */
  attach(queues: DbQueue[], reap: boolean): void {
    this.queues = queues;
    this.reaps = reap;
    for (const q of queues) q.attachOwner(this.registered ? this.id : null);
    if (reap) void this.reapDead();
  }

  /** A graceful stop: the row goes, so whatever this process still holds is released by others. */
  async deregister(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.reaping;
    await this.processes
      .remove([this.id])
      .catch((e: unknown) => this.logger.warn({ err: (e as Error).message }, 'not deregistered'));
  }

  /** Releases the leases of dead peers; answers how many rows were made due. */
  async reapDead(): Promise<number> {
    if (this.stopped || !this.registered || this.reaping) return 0;
    if (this.lastFailure > 0 && Date.now() - this.lastFailure < this.lapseMs) return 0;
    let released = 0;
    this.reaping = (async () => {
      const dead = await this.deadPeers();
      for (const queue of this.queues) released += await queue.releaseDead(dead);
      if (dead.length > 0) {
        await this.processes.remove(dead);
        this.logger.warn({ dead, released }, 'dead processes found; their leases released');
      }
    })()
      .catch((e: unknown) => this.logger.warn({ err: (e as Error).message }, 'reap failed'))
      .finally(() => (this.reaping = null));
    await this.reaping;
    return released;
  }

  private async tick(): Promise<void> {
    await this.beat();
    if (this.reaps) await this.reapDead();
  }

  private async beat(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.processes.beat({
        id: this.id,
        host: this.host,
        pid: process.pid,
        role: this.config.role,
      });
      if (!this.registered) {
        this.registered = true;
        for (const q of this.queues) q.attachOwner(this.id);
      }
    } catch (e) {
      this.lastFailure = Date.now();
      this.logger.warn({ err: (e as Error).message }, 'heartbeat not recorded');
    }
  }

  private async deadPeers(): Promise<string[]> {
    const rows = await this.processes.others(this.id, this.lapseMs);
    return rows
      .filter((r) => r.lapsed || (r.host === this.host && !pidAlive(r.pid)))
      .map((r) => r.id);
  }
}

/** Whether a process of this pid exists on this host (EPERM: it does, someone else's). */
function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
