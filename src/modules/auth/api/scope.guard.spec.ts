import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AppRequest } from '@/platform/kernel/request-context';
import { UnauthorizedError } from './api-key.guard';
import { ScopeGuard } from './scope.guard';
import { REQUIRED_SCOPES } from '../domain/scopes';

/** A context for `handler` whatever the path: the guard must decide by the route's metadata. */
function contextOf(handler: () => void, req: Partial<AppRequest>): ExecutionContext {
  return {
    getType: () => 'http',
    getHandler: () => handler,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
}

describe('ScopeGuard', () => {
  const guard = new ScopeGuard(new Reflector());
  const scoped = () => undefined;
  Reflect.defineMetadata(REQUIRED_SCOPES, { scopes: ['patients:read'] }, scoped);
  const plain = () => undefined;

  it('refuses 401 a route that declares a scope when no key was checked, on any path', () => {
    for (const path of ['/api/auth/v1/patients/', '/API/auth/v1/patients/', '/elsewhere/']) {
      expect(() => guard.canActivate(contextOf(scoped, { path, method: 'GET' }))).toThrow(
        UnauthorizedError,
      );
    }
  });

  it('lets a route without a scope through when no key was checked (pages, health)', () => {
    expect(guard.canActivate(contextOf(plain, { path: '/app/', method: 'GET' }))).toBe(true);
  });

  it('checks the scope of a checked key', () => {
    const auth = { scopes: ['patients:write'] } as unknown as AppRequest['auth'];
    expect(guard.canActivate(contextOf(scoped, { path: '/x/', method: 'GET', auth }))).toBe(true);
    const other = { scopes: ['claims:read'] } as unknown as AppRequest['auth'];
    expect(() =>
      guard.canActivate(contextOf(scoped, { path: '/x/', method: 'GET', auth: other })),
    ).toThrow('This API key is not allowed to read patients.');
  });
});
