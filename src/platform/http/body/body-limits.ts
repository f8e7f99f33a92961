import { SetMetadata } from '@nestjs/common';

/** How big a body a route reads: bytes, then values and nesting (what validation pays for). */
export interface BodyLimits {
  limitBytes: number;
  /** Values (containers and scalars, not keys) a JSON body may hold. */
  maxValues: number;
  maxDepth: number;
  /** The route also reads a `text/plain` body (an X12 claim report), up to `limitBytes`. */
  text?: boolean;
}

export const MIB = 1024 * 1024;

/** No real request comes near these: a full claim has a few hundred values, six levels deep. */
const MAX_BODY_VALUES = 5_000;
const MAX_BODY_DEPTH = 64;

/** docs/api.md, Conventions: every route's limits unless it declares its own. */
export const DEFAULT_BODY_LIMITS: BodyLimits = {
  limitBytes: MIB,
  maxValues: MAX_BODY_VALUES,
  maxDepth: MAX_BODY_DEPTH,
};

export const BODY_LIMITS = 'vision:bodyLimits';

/**
 * A route's own body limits (docs/api.md, Conventions), read by BodyGuard after the route, the key,
 * its rate limit and its scope are known; a route without this has DEFAULT_BODY_LIMITS.
 */
export const AcceptsBody = (limits: Partial<BodyLimits>): MethodDecorator =>
  SetMetadata(BODY_LIMITS, { ...DEFAULT_BODY_LIMITS, ...limits } satisfies BodyLimits);

/** The methods whose routes read a body; GET and DELETE never do (docs/api.md, Conventions). */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);
