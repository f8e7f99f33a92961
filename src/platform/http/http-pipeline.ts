import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DetailError } from '../kernel/errors';
import { isApiPath } from './doors';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives every request an id (the caller's X-Request-Id when sane) and echoes it on the response. */
export function requestIdMiddleware(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    (req as Request & { id: string }).id = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}

/**
 * Security headers on every answer. Pages (the web application, /docs) get helmet with its
 * content security policy (`pages`); the JSON API and health get a fixed set that matters for
 * JSON (the doors' answers too) — no sniffing, no framing by other sites, HTTPS only, no referrer, nothing loaded, not
 * readable cross-origin — set in one step instead of helmet's thirteen middlewares per request.
 */
export function securityHeaders(pages: RequestHandler): RequestHandler {
  const api: [string, string][] = [
    ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'self'"],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['Referrer-Policy', 'no-referrer'],
    ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'SAMEORIGIN'],
  ];
  return (req: Request, res: Response, next: NextFunction) => {
    const path = req.path;
    const answersData = isApiPath(path);
    if (!answersData && !path.startsWith('/health')) return pages(req, res, next);
    for (const [name, value] of api) res.setHeader(name, value);
    // API answers carry patient data: no browser or proxy keeps a copy (SECURITY.md).
    if (answersData) res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

/** The refusals of Node's HTTP parser by its error code; any other code is a 400. */
const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request headers or URL too large.'],
  HPE_REQUEST_TIMEOUT: [408, 'Request timed out.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timed out.'],
};

/** A request Node's HTTP parser refused: `{"detail": "..."}`, as the exception filter answers. */
class ClientError extends DetailError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Requests Node's HTTP parser refuses before Express sees them (headers or URL over 16 KiB, a
 * broken request line) are answered in the contract's envelope too, instead of Node's bare
 * status line with no body.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad request.'];
    const body = JSON.stringify(new ClientError(status, message).body());
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
