import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import type { AppRequest } from '@/platform/kernel/request-context';
import { webUser } from '@/platform/http/web-user';
import { isApiPath } from '@/platform/http/doors';
import { AUDIT_METADATA, type AuditIdSource, type AuditSpec } from '../domain/audited';
import { type AuditActor, type AuditRecord, AuditService } from '../domain/audit.service';

/** The event a route marked `inStatement` writes itself, as the guard prepared it. */
export type StatementAuditEvent = Omit<AuditRecord, 'resourceId'>;
const STATEMENT_EVENT = Symbol('audit event for the statement');
type WithStatementEvent = AppRequest & { [STATEMENT_EVENT]?: StatementAuditEvent };

/**
 * The event the handler of an `inStatement` route writes with its read (`RecordedReads`).
 * Throws when the guard prepared none: an unmarked route or no actor.
 */
export function statementAuditEvent(req: AppRequest): StatementAuditEvent {
  const event = (req as WithStatementEvent)[STATEMENT_EVENT];
  if (!event) throw new Error(`No audit event was prepared for ${req.method} ${req.path}.`);
  return event;
}

/**
 * The one place the audit trail is written (SECURITY.md). For a route marked @Audited, the
 * response is held at `res.end` until its event is stored, so patient data never leaves without
 * its record: whether the handler returns a value (Nest sends it), sends a stored body itself
 * (@Res) or renders a page. Only successful answers (status below 400) are recorded; when the
 * event cannot be stored, the caller gets a 500 instead of the data.
 *
 * It is the last global guard, not an interceptor: it never refuses, it only arms `res.end`
 * (after the key guard has named the actor). A global interceptor would put every request of
 * every route through Nest's RxJS interceptor chain, which cost a third of the CPU of a stored
 * result's GET (bench/README.md). A `result:` id is read from the JSON body being sent.
 *
 * A route marked `inStatement` (the stored result's GETs, the hottest read) is not held: its
 * handler writes the event in the statement that reads the data, so the read and its record
 * commit together or not at all, in one round trip (`statementAuditEvent`, `RecordedReads`).
 */
@Injectable()
export class AuditGuard implements CanActivate {
  private readonly logger = new Logger(AuditGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditService,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const spec = this.reflector.get<AuditSpec | string | undefined>(
      AUDIT_METADATA,
      context.getHandler(),
    );
    if (!spec || typeof spec === 'string') return true;
    const req = context.switchToHttp().getRequest<AppRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const actor = actorOf(req);
    if (!actor) return true;
    if (spec.inStatement) {
      (req as WithStatementEvent)[STATEMENT_EVENT] = {
        actor,
        action: spec.action,
        resourceType: spec.resourceType,
        requestId: req.id ?? null,
        ip: req.ip ?? null,
      };
      return true;
    }

    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      res.end = end as Response['end'];
      if (res.statusCode >= 400) return end(...args);
      const id = resourceId(spec.id, req, res, args[0]);
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
    return true;
  }
}

/** Who a request acts as: its API key, its web user, or an embedded session (SECURITY.md). */
export function actorOf(req: AppRequest): AuditActor | null {
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
  if (!user) return null;
  // An embedded session acts for the user but was opened by an API key's link: its events say
  // `embedded` and name the key that minted it.
  const embeddedBy = req.session.embedded ? (req.session.embeddedSession?.apiKeyId ?? null) : null;
  return {
    accountId: user.accountId,
    type: req.session.embedded ? 'embedded' : 'user',
    name: user.email,
    apiKeyId: embeddedBy,
    userId: user.userId,
  };
}

function resourceId(
  source: AuditIdSource,
  req: AppRequest,
  res: Response,
  sent: unknown,
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
    result: where === 'result' ? jsonBody(sent) : undefined,
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
  if (isApiPath(req.path)) {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    end(JSON.stringify({ detail: 'Internal server error.' }));
  } else {
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    end('Internal server error.');
  }
}

/** The JSON object a handler's answer was serialized to (Nest sends it as one chunk). */
function jsonBody(chunk: unknown): Record<string, unknown> | undefined {
  const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString() : null;
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
