import { ValidateBy, ValidationError } from 'class-validator';
import { MSG } from '../../kernel/messages';

/**
 * Per-element checks of a list, reported under each index (`{"codes": {"1": {"$": ["..."]}}}`):
 * the `items` rule leaves its check in the constraint's context and validation-errors.ts runs it
 * again to place each message, so nothing travels inside message text.
 */

/** Constraint name of the per-element rule. */
export const ITEMS = 'items';

/**
 * The message for one element, or null when the element is fine; a list of messages when a
 * second one says more (base.ts, MoreMessages).
 */
export type ItemCheck = (item: unknown) => string | readonly string[] | null;

interface ItemsContext {
  itemError: ItemCheck;
}

const isItemsContext = (c: unknown): c is ItemsContext =>
  typeof c === 'object' && c !== null && typeof (c as ItemsContext).itemError === 'function';

/**
 * Checks every element of a list with `itemError`. A list longer than `maxItems` passes: its size
 * is reported alone, not element by element (a bounded answer). Anything but a list passes too
 * (the field's `type` rule answers for it).
 */
export function EachItem(itemError: ItemCheck, maxItems: number): PropertyDecorator {
  const context: ItemsContext = { itemError };
  return ValidateBy(
    {
      name: ITEMS,
      validator: {
        validate: (v: unknown) =>
          !Array.isArray(v) || v.length > maxItems || v.every((item) => itemError(item) === null),
        // Shown only where the builder cannot see the list (validationError.value turned off).
        defaultMessage: () => MSG.invalidItems,
      },
    },
    { context },
  );
}

/**
 * The per-index messages of a failed `items` rule (`{"1": ["Not a valid string."]}`), or null when
 * the rule did not fail or the error does not carry the list.
 */
export function itemErrorsOf(error: ValidationError): Record<string, string[]> | null {
  const context = error.contexts?.[ITEMS];
  if (!error.constraints?.[ITEMS] || !isItemsContext(context) || !Array.isArray(error.value))
    return null;
  const byIndex: Record<string, string[]> = {};
  (error.value as unknown[]).forEach((item, i) => {
    const message = context.itemError(item);
    if (message) byIndex[String(i)] = typeof message === 'string' ? [message] : [...message];
  });
  return byIndex;
}
