import { CanActivate, ExecutionContext, Injectable, Logger, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import 'express-session';
import { ForbiddenError } from '@/platform/kernel/errors';
import { ApiKeysService } from '@/modules/auth';
import type { CounterTarget, EntryPoint } from '@/modules/iframe-session';

/** An embedded session lasts at most this long from its link, used or not (SECURITY.md). */
export const EMBEDDED_SESSION_MS = 60 * 60 * 1000;

export interface EmbeddedSessionState {
  entryPoint: EntryPoint;
  /** The API key that minted the link: revoking it ends the session. */
  apiKeyId: string;
  /** Epoch ms past which the session is signed out, however recently it was used. */
  until: number;
  /** Records this session created or was sent to (`patient:PAT…`, `eligibility:uid`). */
  grants: string[];
}

declare module 'express-session' {
  interface SessionData {
    embeddedSession?: EmbeddedSessionState;
  }
}

/** Where an entry point's link lands (`quote`: the Counter the link names). */
const ENTRY_PAGES: Record<Exclude<EntryPoint, 'quote'>, string> = {
  add_patient: '/app/patients/new',
  insurers: '/app/insurers/',
  passwords: '/app/passwords/',
  schedule: '/app/schedule/',
};

/** The page a redeemed link opens, and the records that page is about (its session's grants). */
export function entryOf(
  entryPoint: EntryPoint,
  counter: CounterTarget | null,
): { page: string; grants: string[] } {
  if (entryPoint !== 'quote') return { page: ENTRY_PAGES[entryPoint], grants: [] };
  const { requestUid, personId } = counter!;
  return {
    page: `/app/eligibility/${encodeURIComponent(requestUid)}/persons/${personId}/counter`,
    grants: [`eligibility:${requestUid}`],
  };
}

type RecordKind = 'patient' | 'eligibility' | 'quote';

export const EMBEDDED_REACH = 'vision:embeddedReach';

/** An hour of front-desk work creates far fewer records; the session stays small. */
const MAX_GRANTS = 200;

/**
 * Where the record a page is about is named: a path parameter, a query parameter or a form field.
 * The page is open to an embedded session only for a record of its own (`grants`).
 */
type RecordSource = `param:${string}` | `query:${string}` | `body:${string}`;

export interface EmbeddedReachSpec {
  entryPoint: EntryPoint | 'any';
  record?: { kind: RecordKind; from: RecordSource };
}

/**
 * The page is open to embedded sessions entered at `entryPoint` (SECURITY.md): its entry page
 * and what that page links to. With `record`, only for a record the session created or was sent
 * to. A page without it refuses every embedded session (403): API keys, webhooks, settings,
 * audit, locations and whatever is added later stay closed unless a page says otherwise.
 */
export const EmbeddedReach = (
  entryPoint: EntryPoint | 'any',
  record?: EmbeddedReachSpec['record'],
): ClassDecorator & MethodDecorator =>
  SetMetadata(EMBEDDED_REACH, { entryPoint, record } satisfies EmbeddedReachSpec);

/** Where a successful form sends an embedded session: the record it names becomes its own. */
const GRANTED_BY_REDIRECT: [RegExp, RecordKind][] = [
  [/^\/app\/patients\/([^/?#]+)\/?$/, 'patient'],
  [/^\/app\/eligibility\/([^/?#]+)\/?$/, 'eligibility'],
  [/^\/app\/quotes\/([^/?#]+)\/?$/, 'quote'],
];

/**
 * Global guard: an embedded session reaches only the pages of its entry point (@EmbeddedReach).
 * Other sessions, and API requests, pass untouched.
 */
@Injectable()
export class EmbeddedReachGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    const state = req.session?.embedded ? req.session.embeddedSession : undefined;
    if (!req.session?.embedded) return true;
    const spec = this.reflector.getAllAndOverride<EmbeddedReachSpec | undefined>(EMBEDDED_REACH, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!state || !spec || !reaches(state, spec, req)) {
      throw new ForbiddenError('This page is not available in an embedded session.');
    }
    const res = context.switchToHttp().getResponse<Response>();
    grantOnRedirect(req, res, state);
    return true;
  }
}

function reaches(state: EmbeddedSessionState, spec: EmbeddedReachSpec, req: Request): boolean {
  if (spec.entryPoint !== 'any' && spec.entryPoint !== state.entryPoint) return false;
  if (!spec.record) return true;
  const [where, name] = spec.record.from.split(':') as ['param' | 'query' | 'body', string];
  const source: unknown =
    where === 'param' ? req.params : where === 'query' ? req.query : (req.body as unknown);
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && state.grants.includes(`${spec.record.kind}:${value}`);
}

/** A redirect to a record's page after a form (a new patient, a new check) opens it to the session. */
function grantOnRedirect(req: Request, res: Response, state: EmbeddedSessionState): void {
  const redirect = res.redirect.bind(res) as (...args: unknown[]) => void;
  res.redirect = (...args: unknown[]) => {
    const target = args.find((a): a is string => typeof a === 'string');
    let granted = false;
    for (const [pattern, kind] of GRANTED_BY_REDIRECT) {
      const code = target ? pattern.exec(target)?.[1] : undefined;
      if (!code) continue;
      const grant = `${kind}:${decodeURIComponent(code)}`;
      if (!state.grants.includes(grant) && state.grants.length < MAX_GRANTS) {
        state.grants.push(grant);
        granted = true;
      }
    }
    // A browser follows the redirect as soon as its headers arrive, before the session would be
    // saved at the response's end: the grant is stored first, or the next page would be refused.
    if (granted) req.session.save(() => redirect(...args));
    else redirect(...args);
  };
}

/**
 * Middleware after the session: an embedded session past its hour, or whose API key has been
 * revoked, is signed out before anything else sees it (the request goes on signed out). The key
 * check costs no query while the key is cached (ApiKeysService.isActive).
 */
@Injectable()
export class EmbeddedSessionCheck {
  private readonly logger = new Logger(EmbeddedSessionCheck.name);

  constructor(private readonly apiKeys: ApiKeysService) {}

  use(req: Request, _res: Response, next: NextFunction): void {
    if (!req.session?.embedded) return next();
    const state = req.session.embeddedSession;
    const signOut = (reason: string) => {
      this.logger.log({ accountId: req.session.accountId, reason }, 'embedded session ended');
      req.session.regenerate((err) => next(err));
    };
    if (!state || state.until <= Date.now()) return signOut('expired');
    this.apiKeys.isActive(state.apiKeyId).then(
      (active) => (active ? next() : signOut('api key revoked')),
      (err: unknown) => next(err),
    );
  }
}
