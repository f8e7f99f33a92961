import { parse } from 'node:querystring';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DetailError } from '../../kernel/errors';
import { BodyTooLarge, declaredLength, hasBody, readBody } from './body-reader';

/**
 * A page's form: far more than any of the web application's forms holds (the largest, a
 * verification task's with six persons and its price list, sends about 400 fields, every blank one
 * included); the byte limit bounds its memory whatever the count.
 */
const FORM_LIMITS = { limitBytes: 100 * 1024, maxFields: 1000 };

const AMPERSAND = 0x26;

/**
 * The web application's form bodies, read by the API's reader (docs/api.md, Conventions): length
 * and field count (`&`s) are limited as they stream in. Other bodies pass untouched (multipart
 * uploads have their own intake, after the session and its CSRF token).
 */
export function formBodies(limits = FORM_LIMITS): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req) || !req.is('application/x-www-form-urlencoded')) return next();
    const refuse = (e: unknown) => {
      if (!(e instanceof DetailError)) return next(e);
      res.status(e.status).type('text/plain; charset=utf-8').send(e.message);
    };
    const length = declaredLength(req);
    if (length !== null && length > limits.limitBytes) return refuse(new BodyTooLarge());
    let fields = 1;
    readBody(req, limits.limitBytes, (chunk) => {
      for (const byte of chunk) if (byte === AMPERSAND) fields++;
      return fields > limits.maxFields ? new BodyTooLarge() : null;
    }).then((bytes) => {
      req.body = parse(bytes.toString('utf8'), undefined, undefined, { maxKeys: limits.maxFields });
      next();
    }, refuse);
  };
}
