/**
 * The service's one error family: small domain errors thrown by services, guards and pipes; the
 * global exception filter maps each to the contract's envelope (docs/api.md, Errors) with its status and
 * headers. Services never build HTTP responses themselves, and never throw Nest's HttpExceptions
 * (the filter still maps those the framework throws itself: an unknown route, a body too large).
 */

/** `{"<field>": {"$": [...]}, "nested": {...}}`, or `{"$": [...]}` for whole-request errors. */
export interface ErrorTree {
  $?: string[];
  [field: string]: ErrorTree | string[] | undefined;
}

export abstract class DomainError extends Error {
  abstract readonly status: number;
  /** Headers the answer carries (a 401's `WWW-Authenticate`). */
  readonly headers?: Record<string, string>;
  abstract body(): Record<string, unknown>;
}

/** An error answered `{"detail": "..."}`, its message. */
export abstract class DetailError extends DomainError {
  body() {
    return { detail: this.message };
  }
}

/** 404 `{"detail": "..."}`; also used for another account's objects (tenant isolation). */
export class NotFoundError extends DetailError {
  readonly status = 404;
}

/** 403 `{"detail": "..."}`. */
export class ForbiddenError extends DetailError {
  readonly status = 403;
}

/** 400 `{"errors": {...}}`. */
export class ValidationFailed extends DomainError {
  readonly status = 400;
  constructor(readonly errors: ErrorTree) {
    super('Validation failed');
  }
  body() {
    return { errors: this.errors };
  }

  /** Whole-request error: `{"errors": {"$": [message]}}`. */
  static request(message: string): ValidationFailed {
    return new ValidationFailed({ $: [message] });
  }

  /** Error on one (possibly nested) field: `field('patient.first_name', msg)`. */
  static field(path: string, message: string): ValidationFailed {
    const tree: ErrorTree = {};
    addFieldError(tree, path.split('.'), message);
    return new ValidationFailed(tree);
  }
}

/** 409 `{"detail": "..."}`: the object is not in a state that allows the request. */
export class ConflictError extends DetailError {
  readonly status = 409;
}

/**
 * 429 `{"detail": "..."}` from the rate limit (docs/api.md, Authentication), with `Retry-After`: the seconds until
 * the key may call again.
 */
export class ThrottledError extends DetailError {
  readonly status = 429;
  override readonly headers: Record<string, string>;
  constructor(readonly retryAfterSeconds: number) {
    super(`Request was throttled. Expected available in ${retryAfterSeconds} seconds.`);
    this.headers = { 'Retry-After': String(retryAfterSeconds) };
  }
}

/**
 * 429 `{"detail": "..."}` with `Retry-After`: an account's quota (not the key's rate limit) is
 * used up until the time named.
 */
export class QuotaExceededError extends DetailError {
  readonly status = 429;
  override readonly headers: Record<string, string>;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.headers = { 'Retry-After': String(Math.max(0, Math.ceil(retryAfterSeconds))) };
  }
}

export function addFieldError(tree: ErrorTree, path: string[], message: string): void {
  let node = tree;
  for (const segment of path) {
    const next = node[segment];
    if (next === undefined || Array.isArray(next)) {
      const created: ErrorTree = {};
      node[segment] = created;
      node = created;
    } else {
      node = next;
    }
  }
  (node.$ ??= []).push(message);
}

/** Collects field errors from several checks so all of them are reported together. */
export class ErrorCollector {
  readonly tree: ErrorTree = {};
  private count = 0;

  add(path: string, message: string): void {
    addFieldError(this.tree, path === '' ? [] : path.split('.'), message);
    this.count++;
  }

  get empty(): boolean {
    return this.count === 0;
  }

  throwIfAny(): void {
    if (this.count > 0) throw new ValidationFailed(this.tree);
  }
}
