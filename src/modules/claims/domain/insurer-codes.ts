import type { ErrorTree } from '@/platform/kernel/errors';
import { MSG } from '@/platform/kernel/messages';
import { isKnownInsurer } from '@/modules/insurers';

/**
 * The unknown insurer of a claim body refused for its fields, reported with them (docs/api.md, Errors);
 * a code with errors of its own (blank, too long) is left to them.
 */
export function unknownClaimInsurerOfBody(body: unknown, errors: ErrorTree): void {
  const member = (body as { primary_member?: unknown } | null)?.primary_member;
  if (typeof member !== 'object' || member === null) return;
  const code = (member as { insurer_code?: unknown }).insurer_code;
  if (typeof code !== 'string' || code.trim() === '') return;
  if ((errors.primary_member as ErrorTree | undefined)?.insurer_code) return;
  if (!isKnownInsurer(code.trim())) (errors.$ ??= []).push(MSG.unknownInsurer(code.trim()));
}
