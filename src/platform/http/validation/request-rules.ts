import type { ErrorTree } from '../../kernel/errors';

/**
 * A whole-request rule of a body (docs/api.md, Errors: an unknown insurer code): given the raw body and
 * the field errors already found, adds its messages to the tree (`$` of the object it is about).
 * It reads the raw body, so it must take any value; a field that has errors of its own is left
 * to them.
 */
type RequestRule = (body: unknown, errors: ErrorTree) => void;

const REQUEST_RULES = Symbol('requestRules');

type WithRules = { [REQUEST_RULES]?: RequestRule[] };

/**
 * Declares a DTO's whole-request rules. The service still checks them on a valid body (beside
 * what only the database knows); the validation pipe adds them to a body refused for its fields,
 * so that all errors of one request come back in one answer, not one round after another.
 */
export function RequestRules(...rules: RequestRule[]): ClassDecorator {
  return (target) => {
    const holder = target as unknown as WithRules;
    holder[REQUEST_RULES] = [...(holder[REQUEST_RULES] ?? []), ...rules];
  };
}

/** Adds the whole-request errors of `body` (a `dto`) to its field errors. */
export function addRequestErrors(dto: unknown, body: unknown, errors: ErrorTree): void {
  const rules = (dto as WithRules | undefined)?.[REQUEST_RULES];
  for (const rule of rules ?? []) rule(body, errors);
}
