import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { PARAMS_PROVIDER_TOKEN, type Params } from 'nestjs-pino';
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import type { AppConfig } from '@/platform/config/env';
import { traceLogFields, tracingOn } from '@/platform/tracing/tracing';

/**
 * Structured logs: JSON lines (pretty on a developer's terminal, see LOG_FORMAT). Credentials and
 * secrets are redacted wherever they might appear, request URLs are logged without their query
 * string (a patient search is patient data), and bodies are never logged.
 */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret',
  '*.api_key',
  '*.apiKey',
  '*.key',
  '*.token',
  '*.authorization',
];

/**
 * Request headers worth a log line. An allowlist, not a denylist: clients put keys in headers of
 * their own invention (`Api-Key`, `X-Auth-Token`, `Proxy-Authorization`), and those must not be
 * written down. Credential headers appear only as "[REDACTED]", to show they were sent.
 */
const LOGGED_HEADERS = [
  'host',
  'user-agent',
  'content-type',
  'content-length',
  'accept',
  'origin',
  'x-forwarded-for',
];
const REDACTED_HEADERS = ['authorization', 'cookie', 'x-api-key', 'proxy-authorization'];

function loggedHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of LOGGED_HEADERS) if (headers[name] !== undefined) out[name] = headers[name];
  for (const name of REDACTED_HEADERS) if (headers[name] !== undefined) out[name] = '[REDACTED]';
  return out;
}

/**
 * Human-readable lines for a developer's terminal. pino-pretty is a development dependency: where
 * it is not installed the logs stay JSON. Formatted in-process (no worker thread), so a line is
 * written before the next statement runs, as with JSON.
 */
function prettyStream(out: { write(s: string): unknown }): DestinationStream | null {
  let factory: (options: object) => (line: string) => string;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    factory = (require('pino-pretty') as { prettyFactory: typeof factory }).prettyFactory;
  } catch {
    return null;
  }
  const prettify = factory({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
  });
  return { write: (line: string) => out.write(prettify(line)) };
}

/** The one root logger of the process; `out` is for tests (default: stdout). */
export function createRootLogger(
  config: AppConfig,
  out: { write(s: string): unknown } = process.stdout,
): Logger {
  const json: DestinationStream = { write: (line: string) => out.write(line) };
  const destination = (config.logFormat === 'pretty' ? prettyStream(out) : null) ?? json;
  return pino(
    {
      level: config.logLevel,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      // docs/observability.md, Tracing: lines written inside a span carry its trace id;
      // without tracing, no mixin (nothing added to a line's cost).
      ...(tracingOn() ? { mixin: traceLogFields } : {}),
    },
    destination,
  );
}

/**
 * nestjs-pino serves `Logger` calls from the root logger; pino-http's per-request middleware (a
 * child logger and serialised request each time) is not mounted (`forRoutes: []`): the access
 * log is accessLogMiddleware, free when its line would be dropped.
 */
export function loggerParams(config: AppConfig): Params {
  return { pinoHttp: { logger: createRootLogger(config) }, forRoutes: [] };
}

/** The root logger the app's LoggerModule was given (for the access log). */
export function rootLoggerOf(app: INestApplication): Logger {
  return (app.get<Params>(PARAMS_PROVIDER_TOKEN).pinoHttp as { logger: Logger }).logger;
}

type LoggedRequest = Request & { id?: string; auth?: { accountId: string } };

/** One line per answered request: id, method, path (no query), allowlisted headers, status. */
export function accessLogMiddleware(logger: Logger): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const url = req.url;
    if (url.startsWith('/health') || !logger.isLevelEnabled('error')) return next();
    const started = performance.now();
    // 'close' follows every response: after 'finish' when it was sent, alone when it was not.
    res.once('close', () => {
      const status = res.statusCode;
      const aborted = !res.writableFinished;
      const level: Level = aborted || status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const r = req as LoggedRequest;
      const line = {
        req: {
          id: r.id,
          method: req.method,
          path: url.split('?')[0],
          headers: loggedHeaders(req.headers),
        },
        res: { statusCode: status },
        responseTime: Math.round(performance.now() - started),
        ...(r.auth ? { accountId: r.auth.accountId } : {}),
      };
      logger[level](line, aborted ? 'request aborted' : 'request completed');
    });
    next();
  };
}
