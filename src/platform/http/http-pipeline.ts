import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { json, text } from 'express';
import { MSG } from '../kernel/messages';

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

// Keys that would let a JSON body reach an object's prototype through class-transformer.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** No real request comes near these: a full claim has a few hundred values, six levels deep. */
export const MAX_BODY_VALUES = 5_000;
export const MAX_BODY_DEPTH = 64;

/** How big a JSON body may be: bytes, then values and nesting (what validation pays for). */
export interface BodyLimits {
  limitBytes: number;
  maxValues: number;
  maxDepth: number;
}

const MIB = 1024 * 1024;

/** docs/api.md, Conventions: every route's limits unless it has its own. */
export const DEFAULT_BODY_LIMITS: BodyLimits = {
  limitBytes: MIB,
  maxValues: MAX_BODY_VALUES,
  maxDepth: MAX_BODY_DEPTH,
};

/**
 * A claim report upload (docs/api.md "Claim reports and remittances"): the largest 835 a small
 * practice receives is far below this. It was 16 MiB, and a file of that size, read whole,
 * needed more memory than a process has (issue 40).
 */
export const CLAIM_REPORT_MAX_BYTES = 5 * MIB;

/**
 * Routes with their own limits. docs/api.md, Batches: a batch takes up to 10,000 eligibility request
 * bodies in 16 MiB; its value cap scales with its item count (a full item, Universal Search
 * list included, has under 40 values), its depth cap stays.
 */
export const ROUTE_BODY_LIMITS: { method: string; path: RegExp; limits: BodyLimits }[] = [
  {
    method: 'POST',
    path: /^\/api\/auth\/v1\/eligibility\/batches\/?$/,
    limits: { limitBytes: 16 * MIB, maxValues: 10_000 * 40, maxDepth: MAX_BODY_DEPTH },
  },
  {
    // docs/api.md, Appointments: a sync lists up to 5,000 appointment bodies. A full item (a
    // patient with a subscriber, a few services and insurers) is about 0.6 KiB as compact JSON
    // and 0.9 KiB pretty-printed: 5,000 items of 1.2 KiB ≈ 5.9 MiB, so 6 MiB. An item has at most
    // about 60 values (20 services, 10 insurers, the patient and subscriber).
    method: 'POST',
    path: /^\/api\/auth\/v1\/appointments\/sync\/?$/,
    limits: { limitBytes: 6 * MIB, maxValues: 5_000 * 60, maxDepth: MAX_BODY_DEPTH },
  },
  {
    // docs/api.md, Next eligible dates: up to 1,000 history entries of 4 values (the object, its
    // benefit code, date and source) and 100 rules of at most 19 (ten `shared_with` codes
    // included) make about 5,910 values, over the default; the bytes stay far below 1 MiB.
    method: 'POST',
    path: /^\/api\/auth\/v1\/benefits\/next-eligible\/?$/,
    limits: { limitBytes: MIB, maxValues: 8_000, maxDepth: MAX_BODY_DEPTH },
  },
  {
    method: 'POST',
    path: /^\/api\/auth\/v1\/claim-reports\/?$/,
    limits: {
      limitBytes: CLAIM_REPORT_MAX_BYTES,
      maxValues: MAX_BODY_VALUES,
      maxDepth: MAX_BODY_DEPTH,
    },
  },
];

/** Routes that also read a `text/plain` body (a claim report is X12 text). */
export const TEXT_BODY_ROUTES: { method: string; path: RegExp; limitBytes: number }[] = [
  {
    method: 'POST',
    path: /^\/api\/auth\/v1\/claim-reports\/?$/,
    limitBytes: CLAIM_REPORT_MAX_BYTES,
  },
];

/**
 * Why a parsed JSON body is too big to validate, or null. Validation costs time per value
 * (class-transformer copies every one, even of unknown fields) and recurses per level: 100,000
 * tiny values would hold the event loop for seconds, a few thousand levels overflow the stack.
 */
export function bodyTooComplex(
  body: unknown,
  maxValues = MAX_BODY_VALUES,
  maxDepth = MAX_BODY_DEPTH,
): string | null {
  let count = 0;
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++count > maxValues) return MSG.tooManyValues(maxValues);
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) return MSG.tooDeep(maxDepth);
    if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth + 1]);
    } else {
      for (const key in value) stack.push([(value as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return null;
}

/**
 * Security headers on every answer. Pages (the web application, /docs) get helmet with its
 * content security policy (`pages`); the JSON API and health get a fixed set that matters for
 * JSON — no sniffing, no framing by other sites, HTTPS only, no referrer, nothing loaded, not
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
    const url = req.url;
    if (!url.startsWith('/api/') && !url.startsWith('/health')) return pages(req, res, next);
    for (const [name, value] of api) res.setHeader(name, value);
    // API answers carry patient data: no browser or proxy keeps a copy (SECURITY.md).
    if (url.startsWith('/api/')) res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

/** The media types the API parses as JSON. */
const JSON_TYPES = ['application/json', 'application/*+json'];

const isApiPath = (path: string) => path.startsWith('/api/') || path.startsWith('/health/');

/** API methods whose routes take a JSON body (the web application's forms are elsewhere). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * A body the API would not read: sent to an API route, but not as JSON (no Content-Type, a
 * form, text). Unread, it looked like no body at all ("patient: This field is required."), which
 * sends a newcomer looking in the wrong place (docs/api.md, Errors). An empty body (Content-Length: 0)
 * is no body, whatever its type.
 */
function bodyNotJson(req: Request): boolean {
  if (!BODY_METHODS.has(req.method) || !req.path.startsWith('/api/')) return false;
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0'))
    return false;
  return !req.is(JSON_TYPES);
}

/**
 * JSON body parsing with the contract's answers: over the limit → 413, unparsable → 400, a body
 * on an API route that is not JSON → 415. Done
 * here, before routing, so the answers are the same for every path; `routes` (matched on method
 * and path) have limits of their own, everything else has `defaults`.
 */
export function jsonBodyMiddleware(
  defaults: BodyLimits = DEFAULT_BODY_LIMITS,
  routes = ROUTE_BODY_LIMITS,
): RequestHandler {
  const parser = (limits: BodyLimits) => {
    const parse = json({
      limit: limits.limitBytes,
      strict: false,
      type: JSON_TYPES,
      reviver: (key: string, value: unknown) => (FORBIDDEN_KEYS.has(key) ? undefined : value),
    });
    return { parse, limits };
  };
  const standard = parser(defaults);
  const own = routes.map((r) => ({ method: r.method, path: r.path, ...parser(r.limits) }));
  const texts = TEXT_BODY_ROUTES.map((r) => ({
    ...r,
    parse: text({ limit: r.limitBytes, type: 'text/plain' }),
  }));
  return (req: Request, res: Response, next: NextFunction) => {
    // No body (most GETs): nothing to parse, as the parser itself would decide, only sooner.
    if (
      req.headers['content-length'] === undefined &&
      req.headers['transfer-encoding'] === undefined
    )
      return next();
    // GET and DELETE take no body (docs/api.md, Conventions): one sent is not read, so it can
    // cause no answer the operation does not document (Node discards it after the answer).
    if (isApiPath(req.path) && !BODY_METHODS.has(req.method)) return next();
    const textRoute = texts.find((r) => r.method === req.method && r.path.test(req.path));
    if (textRoute && req.is('text/plain')) {
      textRoute.parse(req, res, (err?: unknown) => (err ? answerParseError(res, err) : next()));
      return;
    }
    if (bodyNotJson(req)) {
      // The 415 names what the operation takes (text/plain too, for a claim report).
      res.status(415).json({ detail: textRoute ? MSG.jsonOrTextOnly : MSG.jsonOnly });
      return;
    }
    const { parse, limits } =
      own.find((r) => r.method === req.method && r.path.test(req.path)) ?? standard;
    parse(req, res, (err?: unknown) => {
      if (!err) {
        const problem = bodyTooComplex(req.body, limits.maxValues, limits.maxDepth);
        if (problem) {
          res.status(400).json({ errors: { $: [problem] } });
          return;
        }
        return next();
      }
      answerParseError(res, err);
    });
  };
}

function answerParseError(res: Response, err: unknown): void {
  const e = err as { type?: string; status?: number };
  if (e.type === 'entity.too.large' || e.status === 413) {
    res.status(413).json({ detail: MSG.tooLarge });
  } else if (e.type === 'entity.parse.failed' || e.status === 400) {
    res.status(400).json({ errors: { $: [MSG.malformedJson] } });
  } else if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
    res.status(415).json({ detail: 'Unsupported body encoding; send UTF-8 JSON.' });
  } else if (e.type === 'request.aborted') {
    res.status(400).json({ detail: 'Request aborted.' });
  } else {
    res.status(e.status && e.status >= 400 && e.status < 500 ? e.status : 400).json({
      errors: { $: [MSG.malformedJson] },
    });
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
    const status =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? 431
        : err.code === 'HPE_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 408
          : 400;
    const body = JSON.stringify({
      detail:
        status === 431
          ? 'Request headers or URL too large.'
          : status === 408
            ? 'Request timed out.'
            : 'Bad request.',
    });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
