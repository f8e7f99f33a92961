import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { isApiPath } from '../doors';
import { BoundedGate } from '../../kernel/bounded-gate';
import { DetailError, ValidationFailed } from '../../kernel/errors';
import { MSG } from '../../kernel/messages';
import {
  BODY_LIMITS,
  BODY_METHODS,
  DEFAULT_BODY_LIMITS,
  MIB,
  type BodyLimits,
} from './body-limits';
import { BodyNotReadable, BodyTooLarge, declaredLength, hasBody, readBody } from './body-reader';
import { JsonScanner, parseJsonBody } from './json-scan';

/** The media types the API parses as JSON. */
const JSON_TYPES = ['application/json', 'application/*+json'];

/** Bodies up to this size are read at once; larger ones take their share of the parse budget. */
const SMALL_BODY_BYTES = 64 * 1024;
/**
 * What a large body holds while its request runs, per byte sent: the bytes, the text, the
 * parsed values and validation's copy of them (an estimate: with it, the route fault test's
 * maximal bodies of every route stay far within the pod's limit, deploy/README.md, Memory).
 */
export const HELD_PER_BYTE = 4;
/**
 * Per process, what large bodies may hold at once (deploy/README.md, Memory): one maximal batch
 * (16 MiB × 4) and a few smaller ones; more wait in a short queue, and past it are answered 429.
 */
export const LARGE_BODY_BUDGET = 96 * MIB;
export const LARGE_BODIES_WAITING = 8;
const BUSY_RETRY_AFTER_SECONDS = 2;

/** 429 with `Retry-After`: every place for large bodies in this process is taken. */
class LargeBodiesBusy extends DetailError {
  readonly status = 429;
  override readonly headers = { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) };
  constructor() {
    super(
      `Too many large requests at this moment. Try again in ${BUSY_RETRY_AFTER_SECONDS} seconds.`,
    );
  }
}

const largeBodies = new BoundedGate(LARGE_BODY_BUDGET, LARGE_BODIES_WAITING);

/**
 * Reads an API request's body (docs/api.md, Conventions) as the last guard before the audit
 * guard, so nothing is read before the route, key and scope are known. In order: the type (415),
 * the declared length (413), a place in the large-body budget (429), then the bytes as they
 * stream (413 past the limit; JsonScanner's 400 past a value or depth limit), prototype keys removed.
 */
@Injectable()
export class BodyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (!isApiPath(req.path) || !BODY_METHODS.has(req.method)) return true;
    const limits =
      this.reflector.get<BodyLimits | undefined>(BODY_LIMITS, context.getHandler()) ??
      DEFAULT_BODY_LIMITS;
    req.body = await readApiBody(req, context.switchToHttp().getResponse<Response>(), limits);
    return true;
  }
}

/** The body of an API request within `limits`: parsed JSON, a text, or undefined for none. */
export async function readApiBody(
  req: Request,
  res: Response,
  limits: BodyLimits,
): Promise<unknown> {
  const json = Boolean(req.is(JSON_TYPES));
  if (!hasBody(req)) return json ? {} : undefined;
  const text = !json && limits.text === true && Boolean(req.is('text/plain'));
  if (!json && !text) throw new BodyNotReadable(limits.text ? MSG.jsonOrTextOnly : MSG.jsonOnly);
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset))
    throw new BodyNotReadable(MSG.unsupportedEncoding);
  const length = declaredLength(req);
  if (length !== null && length > limits.limitBytes) throw new BodyTooLarge();
  const expected = length ?? limits.limitBytes;
  if (expected > SMALL_BODY_BYTES) await holdUntilAnswered(res, expected * HELD_PER_BYTE);
  const scanner = json ? new JsonScanner(limits.maxValues, limits.maxDepth) : null;
  const bytes = await readBody(req, limits.limitBytes, (chunk) => {
    const problem = scanner?.feed(chunk);
    return problem ? ValidationFailed.request(problem) : null;
  });
  let body = bytes.toString('utf8');
  if (body.charCodeAt(0) === 0xfeff) body = body.slice(1);
  if (text) return body;
  if (body.trim() === '') return {};
  try {
    return parseJsonBody(body);
  } catch {
    throw ValidationFailed.request(MSG.malformedJson);
  }
}

/** Takes `weight` of the large-body budget until the answer is sent (or the client went away). */
function holdUntilAnswered(res: Response, weight: number): Promise<void> {
  const capped = Math.min(weight, LARGE_BODY_BUDGET);
  return new Promise<void>((started, refused) => {
    largeBodies
      .run(
        capped,
        () =>
          new Promise<void>((released) => {
            started();
            if (res.writableFinished || res.destroyed) released();
            else res.once('close', () => released());
          }),
        () => new LargeBodiesBusy(),
      )
      .catch(refused);
  });
}
