import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { Response } from 'express';
import { DatabaseError } from 'pg';
import { QueryFailedError } from 'typeorm';
import { DomainError } from '../kernel/errors';
import { MSG } from '../kernel/messages';
import type { AppRequest } from '../kernel/request-context';

/**
 * The one place errors become HTTP answers (docs/api.md, Errors). Anything not recognised is a 500 with
 * a fixed body; the stack goes to the log with the request id, never to the client.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<AppRequest>();
    if (res.headersSent) return;
    const [status, body] = errorAnswer(exception, req, this.logger);
    if (exception instanceof DomainError && exception.headers) {
      for (const [name, value] of Object.entries(exception.headers)) res.setHeader(name, value);
    }
    if (isWebPage(req)) return this.renderPage(res, status, body);
    res.status(status).json(body);
  }

  /** The web application's pages answer errors as pages, not JSON. */
  private renderPage(res: Response, status: number, body: unknown): void {
    const detail = (body as { detail?: string }).detail;
    const heading =
      status === 404 ? 'Not found' : status >= 500 ? 'Something went wrong' : 'That did not work';
    const message =
      status === 404
        ? (detail ?? 'This page does not exist.')
        : status >= 500
          ? 'The error was logged. Try again in a moment.'
          : (detail ?? 'Check the form and try again.');
    res
      .status(status)
      .render(
        'error.njk',
        { title: heading, heading, message, user: null, csrf: '' },
        (err, html) => {
          if (err) res.type('text/plain').send(`${heading}. ${message}`);
          else res.type('html').send(html);
        },
      );
  }
}

/**
 * The status and JSON body of an error, as the API answers it (docs/api.md, Errors): the one
 * mapping, which other doors reuse to word the same answer in their own format.
 */
export function errorAnswer(
  exception: unknown,
  req: AppRequest,
  logger: Logger = new Logger('HttpError'),
): [number, unknown] {
  if (exception instanceof DomainError) return [exception.status, exception.body()];
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === Number(HttpStatus.NOT_FOUND)) return [404, noRoute(req.originalUrl ?? req.url)];
    if (status === Number(HttpStatus.PAYLOAD_TOO_LARGE)) return [413, { detail: MSG.tooLarge }];
    const response = exception.getResponse();
    // Bodies already in the contract's shape (or terminus' health report) pass through.
    if (typeof response === 'object' && response !== null && !('statusCode' in response)) {
      return [status, response];
    }
    if (status >= 500) return internal(exception, req, logger);
    return [status, { detail: typeof response === 'string' ? response : exception.message }];
  }
  // Text PostgreSQL cannot store that got past validation (a path or query parameter, JSON
  // metadata): the client's input, not our failure.
  const unstorable = unstorableTextMessage(exception);
  if (unstorable) return [400, { errors: { $: [unstorable] } }];
  if (isUnavailable(exception)) {
    logger.error({ reqId: req.id, err: describe(exception) }, 'dependency unavailable');
    return [503, { detail: 'Service temporarily unavailable, please retry.' }];
  }
  return internal(exception, req, logger);
}

function internal(exception: unknown, req: AppRequest, logger: Logger): [number, unknown] {
  logger.error(
    {
      reqId: req.id,
      err: describe(exception),
      stack: exception instanceof Error ? exception.stack : undefined,
    },
    'unhandled error',
  );
  return [500, { detail: MSG.internal }];
}

function describe(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** PostgreSQL refused U+0000 in text (22021) or in JSON (22P05): the message for it, or null. */
export function unstorableTextMessage(e: unknown): string | null {
  let code: string | undefined;
  if (e instanceof QueryFailedError) {
    code = (e as QueryFailedError & { driverError?: { code?: string } }).driverError?.code;
  } else if (e instanceof DatabaseError) {
    // A query on the driver's pool (the hot read path) fails with pg's own error.
    code = e.code;
  }
  return code === '22021' || code === '22P05' ? MSG.nullCharacters : null;
}

/** A database or Redis connection problem: the client should retry, it is not our bug. */
export function isUnavailable(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code =
    (e as { code?: string }).code ??
    (e as QueryFailedError & { driverError?: { code?: string } }).driverError?.code;
  if (
    code &&
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      '57P01',
      '57P02',
      '57P03',
      // too_many_connections: the server is full (other processes' pools); a retry can succeed.
      '53300',
      '08006',
      '08001',
      '08003',
    ].includes(code)
  ) {
    return true;
  }
  // The name too: ioredis' MaxRetriesPerRequestError says "Reached the max retries per request
  // limit" in its message, and answered 500 when Redis went away mid-command.
  return /Connection terminated|timeout exceeded when trying to connect|Connection is closed|MaxRetriesPerRequestError|Stream isn't writeable|enableOfflineQueue/i.test(
    `${e.name}: ${e.message}`,
  );
}

function isWebPage(req: AppRequest): boolean {
  return (
    req.path === '/embed' ||
    req.path.startsWith('/embed/') ||
    (req.path.startsWith('/app/') && !req.path.startsWith('/app/static/')) ||
    req.path === '/app'
  );
}

/**
 * A path that is no route (docs/api.md, Conventions: paths). The detail stays as it is; an API path
 * gets a `hint` saying where the routes are.
 */
export function noRoute(url: string): { detail: string; hint?: string } {
  const path = url.split('?')[0];
  if (!path.startsWith('/api/')) return { detail: MSG.notFound };
  const versioned = API_PREFIXES.some((prefix) => path.startsWith(prefix));
  return { detail: MSG.notFound, hint: versioned ? MSG.noRouteHint : MSG.noApiPrefixHint };
}

const API_PREFIXES = ['/api/auth/v1/', '/api/auth/v2/'];
