import type { NextFunction, Request, Response } from 'express';
import { chain, pageArea } from './page-pipeline';

describe('pageArea', () => {
  it.each([
    ['/app/static/app.css', 'static'],
    ['/app/login', 'sign-in'],
    ['/app/login/', 'sign-in'],
    ['/app/login/code', 'sign-in'],
    ['/embed', 'sign-in'],
    ['/app/logout', 'logout'],
    ['/app/two-factor/enrol', 'enrolment'],
    ['/app/two-factor/enrol/', 'enrolment'],
    ['/app/two-factor', 'two-factor'],
    ['/app/two-factor/disable', 'two-factor'],
    ['/app', 'page'],
    ['/app/', 'page'],
    ['/app/patients/PAT123', 'page'],
    ['/app/loginx', 'page'],
    ['/app/no-such-page', 'page'],
  ])('%s is %s', (path, area) => {
    expect(pageArea(path)).toBe(area);
  });
});

describe('chain', () => {
  const req = {} as Request;
  const res = {} as Response;

  it('runs the handlers in order, then calls next once', () => {
    const seen: string[] = [];
    const next = jest.fn();
    chain(
      (_q, _s, n: NextFunction) => {
        seen.push('a');
        n();
      },
      (_q, _s, n: NextFunction) => {
        seen.push('b');
        n();
      },
    )(req, res, next);
    expect(seen).toEqual(['a', 'b']);
    expect(next).toHaveBeenCalledTimes(1);
    expect(next).toHaveBeenCalledWith();
  });

  it('stops at an error, passed on or thrown, and at a handler that answers', () => {
    const failure = new Error('x');
    const later = jest.fn();
    const passed = jest.fn();
    chain((_q, _s, n: NextFunction) => n(failure), later)(req, res, passed);
    expect(passed).toHaveBeenCalledWith(failure);
    const thrown = jest.fn();
    chain(() => {
      throw failure;
    }, later)(req, res, thrown);
    expect(thrown).toHaveBeenCalledWith(failure);
    const answered = jest.fn();
    chain(() => undefined, later)(req, res, answered);
    expect(answered).not.toHaveBeenCalled();
    expect(later).not.toHaveBeenCalled();
  });
});
