import type { Env } from './env-parts';
import { environment } from './env-file';

/**
 * docs/observability.md, Tracing: OpenTelemetry traces over OTLP/HTTP, on when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set. Read twice: by `src/tracing.ts`, before the application's
 * modules load (instrumentation must wrap `http`, `pg`, `ioredis` and express before anything
 * requires them), and by loadConfig with every other setting, which reports a bad value.
 */
export interface TracingConfig {
  /** The collector's base URL; spans go to `<endpoint>/v1/traces` (JSON over HTTP). */
  endpoint: string;
  /** The `service.name` of every span (OTEL_SERVICE_NAME). */
  serviceName: string;
}

export const DEFAULT_SERVICE_NAME = 'vision-eligibility-service';

/** Null when OTEL_EXPORTER_OTLP_ENDPOINT is unset or empty: no tracing code is loaded. */
export function loadTracingConfig(env: Env, problems: string[]): TracingConfig | null {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return null;
  try {
    const url = new URL(endpoint);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      problems.push(
        `OTEL_EXPORTER_OTLP_ENDPOINT: must use http: or https: (got "${url.protocol}")`,
      );
      return null;
    }
    if (url.search || url.hash) {
      problems.push('OTEL_EXPORTER_OTLP_ENDPOINT: a base URL without query or fragment');
      return null;
    }
  } catch {
    problems.push(`OTEL_EXPORTER_OTLP_ENDPOINT: must be a URL (got "${endpoint}")`);
    return null;
  }
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || DEFAULT_SERVICE_NAME;
  if (serviceName.length > 255) {
    problems.push('OTEL_SERVICE_NAME: at most 255 characters');
    return null;
  }
  return { endpoint: endpoint.replace(/\/+$/, ''), serviceName };
}

/**
 * The tracing settings as `npm start` will validate them (the environment over `.env`); null
 * when tracing is off or its settings are invalid (loadConfig then refuses to start with them).
 */
export function tracingSettings(env: Env = environment()): TracingConfig | null {
  return loadTracingConfig(env, []);
}
