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
 * The span of every request (docs/architecture.md, Tracing), made by the first middleware rather
 * than instrumentation-http's incoming side, which wraps every listener and halved the cheapest
 * GET's throughput (bench scenario 11). Same stable attributes, continues a W3C `traceparent`,
 * ends when the response closes; an error on a 5xx or an unfinished response. A request with a
 * body is bound to the context as an emitter, so a body parser's `next` runs in it.
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
