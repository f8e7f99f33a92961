import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ForbiddenError } from '@/platform/kernel/errors';
import type { AppRequest } from '@/platform/kernel/request-context';
import { AUTH_MESSAGES, UnauthorizedError } from './api-key.guard';
import {
  grants,
  REQUIRED_SCOPES,
  scopeAction,
  scopeRefusal,
  type ScopeRequirement,
} from '../domain/scopes';

/**
 * Global guard after ApiKeyGuard: the key must hold the scope its route declares
 * (@RequireScope). A route under /api/ that declares none is refused outright; start-up
 * (RouteDeclarationCheck) already refuses to run with one, this only keeps the default closed.
 * A route that declares a scope but was reached without a checked key is refused 401: whatever
 * let the request past the key guard, it does not reach the handler.
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<AppRequest>();
    const required = this.reflector.get<ScopeRequirement | undefined>(
      REQUIRED_SCOPES,
      context.getHandler(),
    );
    if (!req.auth) {
      if (required) throw new UnauthorizedError(AUTH_MESSAGES.missing);
      return true;
    }
    if (!required) throw new Error(`Route ${req.method} ${req.path} declares no API key scope.`);
    const missing = required.scopes.find((s) => !grants(req.auth!.scopes, s));
    if (missing) throw new ForbiddenError(scopeRefusal(required.action ?? scopeAction(missing)));
    return true;
  }
}
