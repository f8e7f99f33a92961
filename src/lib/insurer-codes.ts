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

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Edit distance of two short strings (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** The only insurer of `matches`, or null when none or several match. */
const onlyOne = (matches: readonly (typeof KNOWN_INSURERS)[number][]): string | null =>
  matches.length === 1 ? matches[0].code : null;

/**
 * The known code an unknown one most likely meant, or null when none is close: the same code in
 * other letter case; a last segment (`VSP`, `eyemed`) naming an insurer's last segment or name,
 * case and punctuation aside, or the start of only one of them; a code two typos away from one.
 */
export function closestInsurerCode(code: string): string | null {
  const text = code.trim();
  const sameCode = KNOWN_INSURERS.find((i) => i.code.toLowerCase() === text.toLowerCase());
  if (sameCode) return sameCode.code;
  const tail = squash(text.split(':').pop() ?? '');
  if (tail === '') return null;
  const keys = (i: (typeof KNOWN_INSURERS)[number]) => [
    squash(i.code.split(':').pop() ?? ''),
    squash(i.name),
  ];
  const named = onlyOne(KNOWN_INSURERS.filter((i) => keys(i).includes(tail)));
  if (named) return named;
  if (tail.length >= 3) {
    const started = onlyOne(KNOWN_INSURERS.filter((i) => keys(i).some((k) => k.startsWith(tail))));
    if (started) return started;
  }
  const near = KNOWN_INSURERS.filter(
    (i) => editDistance(i.code.toLowerCase(), text.toLowerCase()) <= 2,
  );
  return onlyOne(near);
}
