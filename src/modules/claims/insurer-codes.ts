/**
 * The insurers a claim may name (CONTRACT §4), with the names the notification e-mail shows.
 * Kept here until the claims module can ask the insurers registry.
 */
export const CLAIM_INSURERS: readonly { code: string; name: string }[] = [
  { code: 'insurer:demo:vision', name: 'Demo Vision (sandbox)' },
  { code: 'insurer:vision:vsp', name: 'VSP Vision Care' },
  { code: 'insurer:vision:eye_med', name: 'EyeMed' },
  { code: 'insurer:vision:spectera', name: 'Spectera (UnitedHealthcare Vision)' },
  { code: 'insurer:vision:davis_vision', name: 'Davis Vision' },
  { code: 'insurer:vision:superior', name: 'Superior Vision' },
  { code: 'insurer:vision:cigna_vision', name: 'Cigna Vision' },
  { code: 'insurer:vision:aetna_vision', name: 'Aetna Vision' },
  { code: 'insurer:vision:blue_view', name: 'Blue View Vision (Anthem)' },
];

export function isClaimInsurer(code: string): boolean {
  return CLAIM_INSURERS.some((i) => i.code === code);
}

export function insurerName(code: string): string {
  return CLAIM_INSURERS.find((i) => i.code === code)?.name ?? code;
}
