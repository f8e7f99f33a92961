import { tracingSettings } from './platform/config/tracing';

/**
 * Loaded first by `src/main.ts` (every process of `npm start`): with OTEL_EXPORTER_OTLP_ENDPOINT
 * set, OpenTelemetry starts here, before `http`, express, `pg` and `ioredis` are loaded, so its
 * instrumentations wrap them (docs/observability.md, Tracing). Unset, nothing of OpenTelemetry
 * is loaded at all.
 */
const settings = tracingSettings();
if (settings) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./platform/tracing/sdk') as typeof import('./platform/tracing/sdk')).startTracing(
    settings,
  );
}
