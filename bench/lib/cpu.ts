import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/**
 * How much of the machine's CPU went to processes that are not part of the bench while a
 * scenario ran. On a shared machine (tests, builds, browsers of other work) the figures of a
 * 2-core box move a lot with that; the report shows it next to each scenario so a slow figure
 * can be told from a busy machine.
 *
 * Bench CPU = this process and its reaped children (load workers, CLI), the live children (the
 * service, the baseline), Redis, and PostgreSQL's own processes and its backends connected to
 * the bench database. Backends that ended meanwhile are charged to the postmaster, so to the
 * bench: the share of others is, if anything, under-counted.
 */
const TICKS_PER_SEC = 100; // USER_HZ on Linux

interface Snapshot {
  at: number;
  busy: number;
  bench: number;
  /** The parts of `bench`, in ticks: live children (service, baselines), PostgreSQL, Redis. */
  live: number;
  postgres: number;
  redis: number;
}

/** CPU milliseconds of a phase by process group (the rest of the bench: this process and its load workers). */
export interface CpuSplit {
  service: number;
  postgres: number;
  redis: number;
  loadAndBench: number;
}

function machineBusy(): number {
  const fields = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return user + nice + system + irq + softirq + steal;
}

/** utime + stime (+ cutime + cstime) of a pid, in ticks; 0 when it is gone. */
function ticks(pid: number | 'self', withChildren: boolean): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14)
    const own = Number(f[11]) + Number(f[12]);
    return withChildren ? own + Number(f[13]) + Number(f[14]) : own;
  } catch {
    return 0;
  }
}

/** CPU time a process has used so far, in milliseconds. */
export function processCpuMs(pid: number): number {
  return (ticks(pid, false) * 1000) / TICKS_PER_SEC;
}

/** A process and its descendants, as they are now (`/proc/<pid>/task/<pid>/children`). */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // gone, or no children
  }
  return [pid, ...children.flatMap(processTree)];
}

/**
 * CPU time of a process and all its descendants so far, in milliseconds: the cluster's processes
 * count as the service. A descendant that ended is counted in its parent's reaped-children time.
 */
export function treeCpuMs(pid: number): number {
  const [root, ...rest] = processTree(pid);
  const ms = (t: number) => (t * 1000) / TICKS_PER_SEC;
  return ms(ticks(root, true)) + rest.reduce((sum, p) => sum + ms(ticks(p, false)), 0);
}

function serviceTicks(databaseName: string): { postgres: number; redis: number } {
  const sum = { postgres: 0, redis: 0 };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let comm: string;
    let cmdline: string;
    try {
      comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm !== 'postgres' && comm !== 'redis-server') continue;
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue;
    }
    // A backend's title names its database; other backends serve other work.
    const backend = /postgres: \S+: \S+ \S+ /.exec(cmdline);
    if (comm === 'postgres' && backend && !cmdline.includes(` ${databaseName} `)) continue;
    sum[comm === 'postgres' ? 'postgres' : 'redis'] += ticks(Number(entry), true);
  }
  return sum;
}

export class CpuMonitor {
  private last: Snapshot;
  readonly phases: {
    name: string;
    seconds: number;
    otherCpuPct: number;
    benchCpuPct: number;
    splitMs: CpuSplit;
  }[] = [];

  constructor(
    private readonly livePids: () => number[],
    private readonly databaseName: string,
  ) {
    this.last = this.snapshot();
  }

  private snapshot(): Snapshot {
    const live = this.livePids().reduce((sum, pid) => sum + ticks(pid, false), 0);
    const { postgres, redis } = serviceTicks(this.databaseName);
    return {
      at: Date.now(),
      busy: machineBusy(),
      bench: ticks('self', true) + live + postgres + redis,
      live,
      postgres,
      redis,
    };
  }

  /** Ends a phase: the share of the machine (all cores) used by others and by the bench. */
  phase(name: string): { otherCpuPct: number; benchCpuPct: number; splitMs: CpuSplit } {
    const now = this.snapshot();
    const seconds = (now.at - this.last.at) / 1000;
    const capacity = seconds * TICKS_PER_SEC * cpus().length;
    const benchTicks = Math.max(0, now.bench - this.last.bench);
    const busy = Math.max(0, now.busy - this.last.busy);
    const pctOf = (t: number) => Math.round((1000 * t) / Math.max(1, capacity)) / 10;
    const msOf = (t: number) => Math.max(0, (t * 1000) / TICKS_PER_SEC);
    const live = now.live - this.last.live;
    const postgres = now.postgres - this.last.postgres;
    const redis = now.redis - this.last.redis;
    const result = {
      otherCpuPct: pctOf(Math.max(0, busy - benchTicks)),
      benchCpuPct: pctOf(Math.min(busy, benchTicks)),
      splitMs: {
        service: msOf(live),
        postgres: msOf(postgres),
        redis: msOf(redis),
        loadAndBench: msOf(benchTicks - live - postgres - redis),
      },
    };
    this.phases.push({ name, seconds: Math.round(seconds * 10) / 10, ...result });
    this.last = now;
    return result;
  }
}
