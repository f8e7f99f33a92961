/**
 * The application's side of tracing (docs/observability.md, Tracing), importing nothing of
 * OpenTelemetry: unset, every function is a check of one variable. `src/tracing.ts` installs the
 * tracer (`./sdk.ts`) before the application loads, when tracing is on.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a span may carry: kinds, codes and counts, never patient data. */
export type SpanAttributes = Record<string, string | number | boolean>;

/** The span a helper's work runs in: it may add attributes (an outcome) as it learns them. */
export interface SpanNote {
  set(attributes: SpanAttributes): void;
}

export interface SpanOptions {
  /** `consumer` for a queue job; `internal` (default) for work inside the process. */
  kind?: 'internal' | 'consumer';
  /**
   * A W3C `traceparent` the span continues (a job's, taken when it was enqueued); `null`: a new
   * trace (a job nobody traced enqueued, whatever context its runner was in); absent: a child of
   * the active span, if any.
   */
  parent?: string | null;
}

/** The span of each request the service answers: Express' first middleware (./sdk-incoming.ts). */
export interface RequestTracing {
  begin(req: IncomingMessage, res: ServerResponse, next: () => void): void;
}

/** The installed tracer (./sdk.ts). */
export interface Tracer {
  requests: RequestTracing;
  inSpan<T>(
    name: string,
    attributes: SpanAttributes,
    work: (span: SpanNote) => Promise<T>,
    options?: SpanOptions,
  ): Promise<T>;
  /** The active span's W3C traceparent, if there is an active, sampled span. */
  traceparent(): string | undefined;
  /** The active span's trace id, if any. */
  traceId(): string | undefined;
  /** Ends the exporter after sending what it holds. */
  shutdown(): Promise<void>;
}

const NO_SPAN: SpanNote = { set: () => undefined };
let installed: Tracer | null = null;

/** Called once by ./sdk.ts. */
export function installTracer(tracer: Tracer): void {
  installed = tracer;
}

export function tracingOn(): boolean {
  return installed !== null;
}

/**
 * Runs `work` in a span named `name` (ended when the work settles; a throw marks it as an error,
 * by the error's class name only: messages may quote patient data). Without tracing, `work` runs
 * as it is.
 */
export function inSpan<T>(
  name: string,
  attributes: SpanAttributes,
  work: (span: SpanNote) => Promise<T>,
  options?: SpanOptions,
): Promise<T> {
  return installed ? installed.inSpan(name, attributes, work, options) : work(NO_SPAN);
}

/** The middleware that makes each request's span; null without tracing (docs/observability.md, Tracing). */
export function requestTracing(): RequestTracing | null {
  return installed?.requests ?? null;
}

/** What a job carries to continue the trace of the code that enqueued it (undefined: off). */
export function currentTraceparent(): string | undefined {
  return installed?.traceparent();
}

/** pino's mixin when tracing is on: each log line written inside a span carries its trace id. */
export function traceLogFields(): { trace_id?: string } {
  const traceId = installed?.traceId();
  return traceId ? { trace_id: traceId } : {};
}

/** Sends the spans still held (on shutdown); nothing without tracing. */
export async function shutdownTracing(): Promise<void> {
  const tracer = installed;
  installed = null;
  await tracer?.shutdown();
}
