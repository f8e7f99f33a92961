import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { ErrorTree, ValidationFailed } from '../../kernel/errors';
import { MSG } from '../../kernel/messages';
import { isMoreContext } from './base';
import { fastTransform, REFUSE } from './fast-path';
import { ITEMS, itemErrorsOf } from './item-errors';
import { addRequestErrors } from './request-rules';

/**
 * Turns class-validator's error tree into the docs/api.md, Errors envelope: nested objects nest, array
 * indexes become string keys, and every failing field of the request is reported at once.
 * Per field, a failed `presence` rule hides the others ("This field is required." says it all),
 * then a failed `type` rule hides the rest (no "too long" for a number).
 */
export function toErrorTree(errors: ValidationError[]): ErrorTree {
  const tree: ErrorTree = {};
  for (const error of errors) {
    const node = buildNode(error);
    if (node) tree[error.property] = node;
  }
  return tree;
}

/** A failed rule's further messages (base.ts, MoreMessages), from the value it refused. */
function moreOf(error: ValidationError, name: string): readonly string[] {
  const context = error.contexts?.[name];
  return isMoreContext(context) ? context.more(error.value) : [];
}

function buildNode(error: ValidationError): ErrorTree | null {
  const node: ErrorTree = {};
  const constraints = error.constraints ?? {};
  // Element errors of a list (item-errors.ts), each under its index.
  const items = itemErrorsOf(error);
  let messages: string[];
  if (constraints.presence) messages = [constraints.presence];
  else if (constraints.type) messages = [constraints.type, ...moreOf(error, 'type')];
  else if (constraints.whitelistValidation || constraints.nestedValidation) messages = [MSG.object];
  else
    messages = Object.entries(constraints)
      .filter(([name]) => !(name === ITEMS && items))
      .flatMap(([name, message]) => [message, ...moreOf(error, name)]);
  if (messages.length > 0) node.$ = messages;
  if (items)
    for (const [index, itemMessages] of Object.entries(items)) node[index] = { $: itemMessages };

  // A list over its size limit is reported as that alone, not item by item (bounded answer).
  const blocked = Boolean(constraints.presence || constraints.type || constraints.maxItems);
  if (!blocked) {
    for (const child of error.children ?? []) {
      // An element that is not what the list holds is that one error; whatever class-validator
      // found inside it (a list inside a list of objects) is not reported.
      if (items && child.property in items) continue;
      const childNode = buildNode(child);
      if (childNode) node[child.property] = childNode;
    }
  }
  return Object.keys(node).length > 0 ? node : null;
}

/**
 * Nest's ValidationPipe with the fast path in front (fast-path.ts): a body the fast path vouches
 * for becomes its DTO at once; every other value goes the full way, unchanged. A body refused
 * for its fields also gets its DTO's whole-request errors (request-rules.ts), in the same answer.
 */
class FastPathValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.metatype && metadata.type !== 'custom') {
      const dto = fastTransform(metadata.metatype as new () => object, value);
      if (dto !== REFUSE) return dto;
    }
    try {
      return await super.transform(value, metadata);
    } catch (e) {
      if (e instanceof ValidationFailed && metadata.type === 'body')
        addRequestErrors(metadata.metatype, value, e.errors);
      throw e;
    }
  }
}

export function createValidationPipe(): ValidationPipe {
  return new FastPathValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: false,
    forbidUnknownValues: false,
    stopAtFirstError: false,
    // The builder reads each list from `value` to place its element errors (item-errors.ts).
    validationError: { target: false, value: true },
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => new ValidationFailed(toErrorTree(errors)),
  });
}
