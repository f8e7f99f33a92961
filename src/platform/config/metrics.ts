import { isIP } from 'node:net';
import { type Env, envReaders } from './env-parts';

/**
 * docs/architecture.md, What operators see: `GET /metrics` (Prometheus text) on this port and
 * address, for the whole cluster (its supervisor) or this process.
 */
export interface MetricsConfig {
  port: number;
  host: string;
}

/** METRICS_PORT and METRICS_HOST; null (METRICS_PORT unset): no metrics. */
export function loadMetricsConfig(
  env: Env,
  apiPort: number,
  problems: string[],
): MetricsConfig | null {
  const { str, int } = envReaders(env, problems);
  const port = env.METRICS_PORT?.trim() ? int('METRICS_PORT', 0, 1, 65535) : null;
  const host = str('METRICS_HOST', '127.0.0.1');
  if (isIP(host) === 0 && host !== 'localhost') {
    problems.push(`METRICS_HOST: must be an IP address or localhost (got "${host}")`);
  }
  if (port !== null && port === apiPort) {
    problems.push(`METRICS_PORT: must differ from PORT (${apiPort})`);
  }
  return port === null ? null : { port, host };
}
