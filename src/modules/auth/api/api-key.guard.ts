import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, ThrottledError } from '@/platform/kernel/errors';
import type { AppRequest } from '@/platform/kernel/request-context';
import { BEARER_ACCEPTED, isApiPath } from '@/platform/http/doors';
import { AddressLimit } from '../domain/address-limit';
import { ApiKeysService } from '../domain/api-keys.service';
import { REQUIRED_SCOPES } from '../domain/scopes';

export const AUTH_MESSAGES = {
  missing: 'Authentication credentials were not provided.',
  scheme: 'Unknown authentication token type.',
  invalid: 'Invalid authentication token.',
  /** Beside every 401's detail: what a newcomer sent wrong is most often the header itself. */
  hint: 'Send the header Authorization: Api <key>.',
} as const;

/** Every 401 names the scheme it expects (RFC 7235), in `WWW-Authenticate` (docs/api.md, Authentication). */
export const WWW_AUTHENTICATE = 'Api realm="api"';

/** 401 with exactly the three answers of docs/api.md, Authentication, each with the same hint. */
export class UnauthorizedError extends DomainError {
  readonly status = 401;
  override readonly headers = { 'WWW-Authenticate': WWW_AUTHENTICATE };
  body() {
    return { detail: this.message, hint: AUTH_MESSAGES.hint };
  }
}

/**
 * Global guard: every route that declares a scope (@RequireScope: every API route) needs
 * `Authorization: Api <key>` (or `Bearer <key>` on a door's routes), and so does any API path
 * (isApiPath). The route's metadata decides, not
 * only the path as written: a spelling of the path the checks did not expect cannot skip the key.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly reflector: Reflector,
    private readonly addresses: AddressLimit,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<AppRequest>();
    const declared = this.reflector.get<unknown>(REQUIRED_SCOPES, context.getHandler());
    if (declared === undefined && !isApiPath(req.path)) return true;

    const header = req.headers.authorization;
    if (header === undefined || header.trim() === '') this.refuse(req, AUTH_MESSAGES.missing);
    const space = header.indexOf(' ');
    const scheme = space === -1 ? header : header.slice(0, space);
    // RFC 7235: the scheme is case-insensitive (`api`, `API`).
    if (!this.schemeAccepted(scheme.toLowerCase(), context)) this.refuse(req, AUTH_MESSAGES.scheme);
    const key = space === -1 ? '' : header.slice(space + 1).trim();
    const auth = key ? await this.apiKeys.authenticate(key) : null;
    if (!auth) this.refuse(req, AUTH_MESSAGES.invalid);
    req.auth = auth;
    return true;
  }

  /** `Api`, and on a door's routes (DoorController) `Bearer` too. */
  private schemeAccepted(scheme: string, context: ExecutionContext): boolean {
    if (scheme === 'api') return true;
    return (
      scheme === 'bearer' &&
      this.reflector.getAllAndOverride<boolean>(BEARER_ACCEPTED, [
        context.getHandler(),
        context.getClass(),
      ]) === true
    );
  }

  /** 401, or 429 once the address has sent too many requests without a valid credential. */
  private refuse(req: AppRequest, message: string): never {
    const decision = this.addresses.take(req.ip);
    if (!decision.allowed) throw new ThrottledError(decision.retryAfterSeconds);
    throw new UnauthorizedError(message);
  }
}
