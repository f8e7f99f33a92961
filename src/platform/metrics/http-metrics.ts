import type { NextFunction, Request, Response } from 'express';
import type { Histogram } from 'prom-client';
import { methodLabel, routeLabel, statusClass } from './metric-labels';
import type { PromMetrics } from './prom-metrics';

type Child = ReturnType<Histogram<string>['labels']>;

/**
 * `http_server_request_duration_seconds` (docs/architecture.md, What operators see): each
 * response by method, route template (Express' `req.route.path` once a route matched, never the
 * raw path, which holds uids) and status class. Installed only with METRICS_PORT set. The label
 * children are kept by their key, so a request costs one listener, a clock read and a lookup.
 */
export function httpMetricsMiddleware(metrics: PromMetrics) {
  const children = new Map<string, Child>();
  const childOf = (method: string, route: string, status: string): Child => {
    const key = `${method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      child = metrics.httpDuration.labels({ method, route, status_class: status });
      children.set(key, child);
    }
    return child;
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.once('close', () => {
      const route = routeLabel((req.route as { path?: unknown } | undefined)?.path);
      childOf(methodLabel(req.method), route, statusClass(res.statusCode)).observe(
        (performance.now() - started) / 1000,
      );
    });
    next();
  };
}
