import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import type { IncomingMessage } from 'node:http';
import type { RequestTracing } from './tracing';
import { withoutQuery } from './scrub';

/** What Express adds to a request that this file reads. */
interface ExpressRequest extends IncomingMessage {
  route?: { path?: unknown };
}

/**
 * The span of every request the service answers (docs/architecture.md, Tracing), made by the
 * application's first middleware rather than by `@opentelemetry/instrumentation-http`'s incoming
 * side: that one binds the request and the response to the context as event emitters (every
 * listener anyone adds is then wrapped) and reads a dozen attributes before the sampler runs,
 * which halved the throughput of the cheapest GET (bench scenario 11). The span here carries the
 * same stable attributes the tests and dashboards read (`http.request.method`, `url.scheme`,
 * `url.path` without its query, `http.route` once a route matched, `http.response.status_code`),
 * continues a caller's W3C `traceparent`, is named `<method> <route>`, ends when the response
 * closes, and is an error on a 5xx or a response that never finished.
 *
 * The rest of the request runs in its context (AsyncLocalStorage follows every await). The one
 * place it would not is a callback of the request's stream, where a body parser or an upload
 * calls `next`: a request with a body is bound to the context as an emitter (its listeners run
 * in it); a GET has none to bind.
 */
export function requestTracing(tracer: Tracer): RequestTracing {
  return {
    begin(request, response, next) {
      const req = request as ExpressRequest;
      const path = withoutQuery(req.url ?? '/');
      // Probes would fill the traces with nothing to see.
      if (path.startsWith('/health')) return next();
      const method = req.method ?? 'GET';
      const parent = propagation.extract(ROOT_CONTEXT, req.headers);
      const span = tracer.startSpan(
        method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': method,
            // The connection's own (Express' req.protocol would weigh X-Forwarded-Proto against
            // TRUST_PROXY on every request).
            'url.scheme': (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http',
            'url.path': path,
          },
        },
        parent,
      );
      response.once('close', () => {
        const template = req.route?.path;
        if (typeof template === 'string' && template.length > 0) {
          span.setAttribute('http.route', template);
          span.updateName(`${method} ${template}`);
        }
        span.setAttribute('http.response.status_code', response.statusCode);
        if (response.statusCode >= 500 || !response.writableFinished)
          span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
      const ctx = trace.setSpan(parent, span);
      if (hasBody(req)) context.bind(ctx, req);
      context.with(ctx, next);
    },
  };
}

/** Whether a body follows the request's head (RFC 9112, 6.3). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
