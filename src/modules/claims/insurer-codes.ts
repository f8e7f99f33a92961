import { KNOWN_INSURERS, isKnownInsurer } from '@/modules/insurers/insurer-codes';

/** The insurers a claim may name: every known insurer (CONTRACT §4), with its display name. */
export const isClaimInsurer = isKnownInsurer;

export function insurerName(code: string): string {
  return KNOWN_INSURERS.find((i) => i.code === code)?.name ?? code;
}
