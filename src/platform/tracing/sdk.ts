import {
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  ROOT_CONTEXT,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';
import type { TracingConfig } from '@/platform/config/tracing';
import { type Attributes, scrubAttributes, scrubEventAttributes } from './scrub';
import { requestTracing } from './sdk-incoming';
import { installTracer, type SpanAttributes, type SpanNote, type SpanOptions } from './tracing';

/**
 * OpenTelemetry, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set (`src/tracing.ts`): spans of
 * requests, outgoing HTTP, PostgreSQL, Redis and `inSpan`, batched over OTLP/HTTP JSON to
 * `<endpoint>/v1/traces`, each scrubbed first (./scrub.ts).
 */
export function startTracing(config: TracingConfig): void {
  const exporter = new ScrubbingExporter(
    new OTLPTraceExporter({ url: `${config.endpoint}/v1/traces` }),
  );
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // The AsyncLocalStorage context manager and the W3C trace context propagator.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Outgoing calls only (webhooks); each incoming request's span is made by the
      // application's first middleware (./sdk-incoming.ts, which says why). No span per Express
      // layer either: a span per middleware or route handler, for nothing an operator reads,
      // cost a third of the GET's throughput (bench scenario 11).
      new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }),
      new UndiciInstrumentation(),
      // The statement's text (parameters are placeholders), never its values; only inside a
      // traced operation (a request, a job), not every heartbeat and sweep.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
      // The command's name only: keys and values hold session data and job payloads.
      new IORedisInstrumentation({
        requireParentSpan: true,
        dbStatementSerializer: (command) => command,
      }),
    ],
  });

  const tracer = provider.getTracer('vision-eligibility-service');
  installTracer({
    requests: requestTracing(tracer),
    inSpan<T>(
      name: string,
      attributes: SpanAttributes,
      work: (span: SpanNote) => Promise<T>,
      options: SpanOptions = {},
    ): Promise<T> {
      const parent =
        options.parent === undefined
          ? context.active()
          : options.parent === null
            ? ROOT_CONTEXT
            : propagation.extract(ROOT_CONTEXT, { traceparent: options.parent });
      const kind = options.kind === 'consumer' ? SpanKind.CONSUMER : SpanKind.INTERNAL;
      return tracer.startActiveSpan(name, { kind, attributes }, parent, async (span: Span) => {
        try {
          return await work({ set: (more) => span.setAttributes(more) });
        } catch (e) {
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.setAttribute('error.type', (e as Error)?.constructor?.name ?? 'Error');
          throw e;
        } finally {
          span.end();
        }
      });
    },
    traceparent(): string | undefined {
      const carrier: Record<string, string> = {};
      propagation.inject(context.active(), carrier);
      return carrier.traceparent;
    },
    traceId(): string | undefined {
      return trace.getActiveSpan()?.spanContext().traceId;
    },
    async shutdown(): Promise<void> {
      await provider.shutdown();
    },
  });
}

/** Every span as ./scrub.ts lets it out, handed to the OTLP exporter. */
class ScrubbingExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]): void {
    this.inner.export(spans.map(scrubbed), done);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

function scrubbed(span: ReadableSpan): ReadableSpan {
  // The span's own fields through its prototype; the three that may hold data replaced.
  return Object.create(span, {
    attributes: {
      value: scrubAttributes(span.attributes, span.kind === SpanKind.CLIENT),
    },
    events: {
      value: span.events.map((e) => ({
        ...e,
        attributes: scrubEventAttributes(e.attributes as Attributes),
      })),
    },
    status: { value: { code: span.status.code } },
  }) as ReadableSpan;
}
