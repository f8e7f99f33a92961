import type { MaterialsList } from '@/lib/benefits';
import { EXAMPLE_MATERIALS } from '@/modules/quotes/api/quote.examples';
import { priceOrder } from '@/modules/quotes/domain/quote.rules';
import type {
  QuoteAvailability,
  QuoteInput,
  QuoteOrder,
} from '@/modules/quotes/domain/quote.types';

/** Fixtures of priceOrder's specs: the price list of docs/api.md, The counter (the OpenAPI example's). */
export const LIST: MaterialsList = EXAMPLE_MATERIALS;

const OPEN = { available: true, until: null };
export const ALL_OPEN: QuoteAvailability = {
  frames: OPEN,
  spectacle_lenses: OPEN,
  contact_lenses: OPEN,
};

export function quote(order: QuoteOrder, more: Partial<QuoteInput> = {}) {
  return priceOrder({ materials: LIST, order, patientAge: 40, availability: ALL_OPEN, ...more });
}

export const lineOf = (answer: ReturnType<typeof quote>, item: string) => {
  const found = answer.lines.find((l) => l.item === item);
  if (!found) throw new Error(`no line ${item} in ${JSON.stringify(answer)}`);
  return found;
};
