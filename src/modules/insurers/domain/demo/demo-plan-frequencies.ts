import type { BenefitItem, Frequency } from '@/lib/benefits';

/**
 * How often the sandbox's plans allow their benefits (docs/api.md, The sandbox insurer), as
 * vision plans commonly do: an exam every 12 months, spectacle lenses every 12 and frames every
 * 24 months, contact lenses every 12 months instead of frames and lenses (each of the three uses
 * up the others: contacts in lieu of glasses).
 */
const every = (months: number, sharedWith: string[] = []): Frequency => ({
  count: 1,
  period: { kind: 'rolling', months },
  shared_with: sharedWith,
});

const FREQUENCIES: Readonly<Record<string, Frequency>> = {
  exam: every(12),
  'materials.frames': every(24, ['materials.contact_lenses']),
  'materials.spectacle_lenses': every(12, ['materials.contact_lenses']),
  'materials.contact_lenses': every(12, ['materials.frames', 'materials.spectacle_lenses']),
};

/** The items, at every depth, with the frequency of those the table names (a copy each). */
export function withFrequencies(items: BenefitItem[]): BenefitItem[] {
  return items.map((item) => {
    const frequency = FREQUENCIES[item.benefit_code];
    const out: BenefitItem = frequency ? { ...item, frequency: copyOf(frequency) } : item;
    return item.items ? { ...out, items: withFrequencies(item.items) } : out;
  });
}

/** A frequency of the table as a new object (the plan's answer may be changed later). */
function copyOf(f: Frequency): Frequency {
  return {
    ...f,
    period: { ...f.period },
    shared_with: f.shared_with ? [...f.shared_with] : f.shared_with,
  };
}
