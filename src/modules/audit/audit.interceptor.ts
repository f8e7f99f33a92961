import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { Observable, tap } from 'rxjs';
import type { AppRequest } from '@/common/request-context';
import { webUser } from '@/modules/web/web-context';
import { AUDIT_METADATA, type AuditIdSource, type AuditSpec } from './audited';
import { type AuditActor, AuditService } from './audit.service';

/**
 * The one place the audit trail is written (CONTRACT §14). For a route marked @Audited, the
 * response is held at `res.end` until its event is stored, so patient data never leaves without
 * its record: whether the handler returns a value (Nest sends it), sends a stored body itself
 * (@Res) or renders a page. Only successful answers (status below 400) are recorded; when the
 * event cannot be stored, the caller gets a 500 instead of the data.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  private readonly logger = new Logger(AuditInterceptor.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const spec = this.reflector.get<AuditSpec | string | undefined>(
      AUDIT_METADATA,
      context.getHandler(),
    );
    if (!spec || typeof spec === 'string') return next.handle();
    const req = context.switchToHttp().getRequest<AppRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const actor = actorOf(req);
    if (!actor) return next.handle();

    let result: unknown;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      res.end = end as Response['end'];
      if (res.statusCode >= 400) return end(...args);
      const id = resourceId(spec.id, req, res, result);
      // A `query:` source is optional: the page shows a record only when the query names one.
      if (id === null && spec.id?.startsWith('query:')) return end(...args);
      this.audit
        .record({
          actor,
          action: spec.action,
          resourceType: spec.resourceType,
          resourceId: id,
          requestId: req.id ?? null,
          ip: req.ip ?? null,
        })
        .then(
          () => end(...args),
          (e: Error) => {
            this.logger.error({ err: e.message, requestId: req.id }, 'audit event not recorded');
            refuse(req, res, end);
          },
        );
      return res;
    }) as Response['end'];
    return next.handle().pipe(tap((value) => (result = value)));
  }
}

function actorOf(req: AppRequest): AuditActor | null {
  if (req.auth) {
    return {
      accountId: req.auth.accountId,
      type: 'api_key',
      name: req.auth.apiKeyPrefix,
      apiKeyId: req.auth.apiKeyId,
      userId: null,
    };
  }
  const user = req.session ? webUser(req) : null;
  return user
    ? {
        accountId: user.accountId,
        type: 'user',
        name: user.email,
        apiKeyId: null,
        userId: user.userId,
      }
    : null;
}

function resourceId(
  source: AuditIdSource,
  req: AppRequest,
  res: Response,
  result: unknown,
): string | null {
  if (source === null) return null;
  if (source === 'location') {
    const location = res.getHeader('Location');
    if (typeof location !== 'string') return null;
    const last = location.split('?')[0].split('/').filter(Boolean).pop();
    try {
      return last ? decodeURIComponent(last) : null;
    } catch {
      return last ?? null;
    }
  }
  const [where, name] = source.split(':') as ['param' | 'result' | 'body' | 'query', string];
  const from: Record<string, unknown> | undefined = {
    param: req.params,
    result: result as Record<string, unknown> | undefined,
    body: req.body as Record<string, unknown> | undefined,
    query: req.query as Record<string, unknown>,
  }[where];
  const value = from && typeof from === 'object' ? from[name] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

/** The data is withheld: a 500 in place of the answer that was about to go out. */
function refuse(req: AppRequest, res: Response, end: (...args: unknown[]) => Response): void {
  if (res.headersSent) {
    end();
    return;
  }
  res.removeHeader('Content-Length');
  res.removeHeader('ETag');
  res.status(500);
  if (req.path.startsWith('/api/')) {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    end(JSON.stringify({ detail: 'Internal server error.' }));
  } else {
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    end('Internal server error.');
  }
}
