import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { json } from 'express';
import { MSG } from './messages';

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

/**
 * JSON body parsing with the contract's answers: over 1 MiB → 413, unparsable → 400. Done here,
 * before routing, so the answers are the same for every path.
 */
export function jsonBodyMiddleware(limitBytes = 1024 * 1024): RequestHandler {
  const parse = json({
    limit: limitBytes,
    strict: false,
    type: ['application/json', 'application/*+json'],
    reviver: (key: string, value: unknown) => (FORBIDDEN_KEYS.has(key) ? undefined : value),
  });
  return (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
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
    });
  };
}
