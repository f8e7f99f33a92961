import type { Latency } from './stats';

/**
 * What the orchestrator asks of a load worker (bench/load-worker.ts, a separate process so the
 * load's CPU is not charged to the service or the orchestrator), and what the worker answers.
 */

/** Closed-loop load with autocannon: N connections, each sending its next request on an answer. */
export interface CannonJob {
  mode: 'cannon';
  url: string;
  method: 'GET' | 'POST';
  /** Each request takes one of these at random (uids spread over the table). */
  paths: string[];
  headers: Record<string, string>;
  body?: string;
  connections: number;
  /** Bounded by time, by count, or both (whichever ends first). */
  durationSec?: number;
  amount?: number;
  /** Load run first and thrown away (JIT, pools, caches). */
  warmupSec?: number;
  timeoutSec?: number;
  /**
   * A server process whose CPU time (with its descendants: a cluster) per answered request is
   * reported (the measured run only).
   */
  watchPid?: number;
}

export interface CannonResult {
  mode: 'cannon';
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationSec: number;
  rps: number;
  latency: Latency;
  /** CPU milliseconds the watched process spent per answered request. */
  cpuMsPerRequest?: number;
}

/**
 * Open-loop end-to-end run: POSTs at a fixed rate (each with its own request_uid, timed from the
 * moment it is sent), and a webhook receiver in the same process that checks each signature and
 * times the delivery of that uid.
 */
export interface E2eJob {
  mode: 'e2e';
  url: string;
  apiKey: string;
  ratePerSec: number;
  durationSec: number;
  receiverPort: number;
  secret: string;
  /** After the last POST, how long to wait for missing webhooks before calling them missing. */
  graceSec: number;
  uidPrefix: string;
  maxSockets: number;
}

export interface E2eResult {
  mode: 'e2e';
  sent: number;
  accepted: number;
  rejected: number;
  errors: number;
  received: number;
  missing: number;
  badSignature: number;
  duplicates: number;
  unknown: number;
  /** POST sent → signed webhook received. */
  latency: Latency;
  /** POST sent → 201 received. */
  postLatency: Latency;
  /** How far behind its schedule the generator ever fell (a loaded generator would hide latency). */
  maxSendLagMs: number;
  durationSec: number;
}

export type LoadJob = CannonJob | E2eJob;
export type LoadResult = CannonResult | E2eResult;
