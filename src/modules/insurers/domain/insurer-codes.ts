import { MSG } from '@/platform/kernel/messages';
import { closestInsurerCode } from '@/lib/insurer-codes';

/** The insurers the service knows: pure data in src/lib, which config and common read too. */
export * from '@/lib/insurer-codes';

/**
 * The messages of an unknown insurer code: the contract's own (docs/api.md, Errors), then, when
 * a known code is close, a second one naming it.
 */
export function unknownInsurerMessages(code: string): string[] {
  const closest = closestInsurerCode(code);
  return [MSG.unknownInsurer(code), ...(closest ? [MSG.didYouMean(closest)] : [])];
}
