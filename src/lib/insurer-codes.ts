/** The insurers the service knows (docs/api.md, Eligibility). A known code without a connector is not a validation error. */
export const KNOWN_INSURERS = [
  { code: 'insurer:demo:vision', name: 'Demo Vision (sandbox)' },
  { code: 'insurer:vision:vsp', name: 'VSP Vision Care' },
  { code: 'insurer:vision:eye_med', name: 'EyeMed' },
  { code: 'insurer:vision:spectera', name: 'Spectera (UnitedHealthcare Vision)' },
  { code: 'insurer:vision:davis_vision', name: 'Davis Vision' },
  { code: 'insurer:vision:superior', name: 'Superior Vision' },
  { code: 'insurer:vision:cigna_vision', name: 'Cigna Vision' },
  { code: 'insurer:vision:aetna_vision', name: 'Aetna Vision' },
  { code: 'insurer:vision:blue_view', name: 'Blue View Vision (Anthem)' },
] as const;

export type InsurerCode = (typeof KNOWN_INSURERS)[number]['code'];

export const KNOWN_INSURER_CODES: readonly string[] = KNOWN_INSURERS.map((i) => i.code);

export function isKnownInsurer(code: string): boolean {
  return KNOWN_INSURER_CODES.includes(code);
}

/** The insurer's name for people ("VSP Vision Care"); the code itself when it is not known. */
export function insurerName(code: string): string {
  return KNOWN_INSURERS.find((i) => i.code === code)?.name ?? code;
}
