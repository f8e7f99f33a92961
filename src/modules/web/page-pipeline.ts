import type { NextFunction, Request, Response } from 'express';
import { ENROL_PATH } from './two-factor-gate';

export type Handler = (req: Request, res: Response, next: NextFunction) => void;

/** Runs middlewares in order, as Express would; an error or an answer ends the chain. */
export function chain(...handlers: Handler[]): Handler {
  return (req, res, next) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err) return next(err);
      const handler = handlers[i++];
      if (!handler) return next();
      try {
        handler(req, res, step);
      } catch (e) {
        next(e);
      }
    };
    step();
  };
}

/**
 * What a web path needs beyond sessions, CSRF and the frame headers: nothing (sign-in and the
 * embedded-session link), sign-in only (sign-out), sign-in outside the two-factor gate
 * (enrolment), or sign-in and the gate (every other page, known or not, so an unknown path tells
 * a signed-out visitor nothing). The stylesheet needs none of it.
 */
export function pageArea(
  path: string,
): 'static' | 'sign-in' | 'logout' | 'enrolment' | 'two-factor' | 'page' {
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  if (path.startsWith('/app/static/')) return 'static';
  if (under('/embed') || under('/app/login')) return 'sign-in';
  if (under('/app/logout')) return 'logout';
  if (under(ENROL_PATH)) return 'enrolment';
  if (under('/app/two-factor')) return 'two-factor';
  return 'page';
}
