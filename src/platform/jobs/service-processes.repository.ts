import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A registered process as the dead-peer check reads it. */
export interface ServiceProcessRow {
  id: string;
  host: string;
  pid: number;
  /** Its last heartbeat is older than the lapse asked for. */
  lapsed: boolean;
}

/** `service_processes`: the processes alive (ProcessRegistry). */
@Injectable()
export class ServiceProcessesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Registers process `id`, or records its heartbeat (now). */
  async beat(p: { id: string; host: string; pid: number; role: string }): Promise<void> {
    await this.db.query(
      `INSERT INTO service_processes (id, host, pid, role) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`,
      [p.id, p.host, p.pid, p.role],
    );
  }

  /** Every other registered process, with whether its heartbeat is older than `lapseMs`. */
  async others(id: string, lapseMs: number): Promise<ServiceProcessRow[]> {
    const rows: ServiceProcessRow[] = await this.db.query(
      `SELECT id, host, pid, heartbeat_at < now() - ($2 || ' milliseconds')::interval AS lapsed
       FROM service_processes WHERE id <> $1`,
      [id, String(lapseMs)],
    );
    return rows.map((r) => ({ ...r, pid: Number(r.pid) }));
  }

  /** How many processes of each role heartbeated within `lapseMs` (docs/architecture.md, What operators see). */
  async liveByRole(lapseMs: number): Promise<Map<string, number>> {
    const rows: { role: string; live: number }[] = await this.db.query(
      `SELECT role, count(*)::int AS live FROM service_processes
       WHERE heartbeat_at >= now() - ($1 || ' milliseconds')::interval GROUP BY role`,
      [String(lapseMs)],
    );
    return new Map(rows.map((r) => [r.role, r.live]));
  }

  async remove(ids: string[]): Promise<void> {
    await this.db.query('DELETE FROM service_processes WHERE id = ANY($1::uuid[])', [ids]);
  }
}
