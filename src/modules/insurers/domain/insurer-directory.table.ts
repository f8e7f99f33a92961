import type { InsurerCode } from './insurer-codes';

/**
 * What the service ships about each insurer beside its name (docs/api.md, Insurers and assisted verification): other names staff
 * and patients use, the network it runs on, whether a person checks it by default (no 270/271
 * on the clearinghouse networks), and where its provider portal is. Sources: the payers' public
 * provider pages (gathered 2026-11).
 */
interface ShippedInsurer {
  aliases: string[];
  /** The network whose portal and rules serve this plan (EyeMed for Cigna, Aetna, Blue View). */
  networkParent: InsurerCode | null;
  /** docs/api.md, Insurers and assisted verification: answered by a person unless the operator configured a payer id for it. */
  assistedByDefault: boolean;
  /** The payer's provider portal, where a verifier signs in. */
  portalUrl: string | null;
}

export const SHIPPED_INSURERS: Record<InsurerCode, ShippedInsurer> = {
  'insurer:demo:vision': {
    aliases: ['Demo Vision', 'Sandbox'],
    networkParent: null,
    assistedByDefault: false,
    portalUrl: null,
  },
  'insurer:vision:vsp': {
    aliases: ['VSP', 'Vision Service Plan', 'VSP Vision Care'],
    networkParent: null,
    assistedByDefault: true,
    portalUrl: 'https://www.eyefinity.com/',
  },
  'insurer:vision:eye_med': {
    aliases: ['EyeMed', 'EyeMed Vision Care'],
    networkParent: null,
    assistedByDefault: true,
    portalUrl: 'https://www.eyemedinfocus.com/',
  },
  'insurer:vision:spectera': {
    aliases: ['Spectera', 'UnitedHealthcare Vision', 'UHC Vision', 'Optum Health Vision'],
    networkParent: null,
    assistedByDefault: false,
    portalUrl: 'https://www.uhcprovider.com/',
  },
  'insurer:vision:davis_vision': {
    aliases: ['Davis Vision', 'Versant Health'],
    networkParent: null,
    assistedByDefault: false,
    portalUrl: 'https://www.davisvision.com/',
  },
  'insurer:vision:superior': {
    aliases: ['Superior Vision', 'MetLife Vision'],
    networkParent: null,
    assistedByDefault: true,
    portalUrl: 'https://www.superiorvision.com/',
  },
  'insurer:vision:cigna_vision': {
    aliases: ['Cigna Vision', 'Cigna Vision (EyeMed)'],
    networkParent: 'insurer:vision:eye_med',
    assistedByDefault: true,
    portalUrl: 'https://www.eyemedinfocus.com/',
  },
  'insurer:vision:aetna_vision': {
    aliases: ['Aetna Vision', 'Aetna Vision Preferred'],
    networkParent: 'insurer:vision:eye_med',
    assistedByDefault: true,
    portalUrl: 'https://www.eyemedinfocus.com/',
  },
  'insurer:vision:blue_view': {
    aliases: ['Blue View Vision', 'Anthem Blue View Vision'],
    networkParent: 'insurer:vision:eye_med',
    assistedByDefault: true,
    portalUrl: 'https://www.eyemedinfocus.com/',
  },
};

export type EligibilityPath = 'sandbox' | 'x12' | 'assisted' | 'none';

/**
 * How an account's searches reach `code` (docs/api.md, Insurers and assisted verification): off for the account → `none`; the
 * account chose `assisted` → a person; a connector in this service → it (the sandbox, or X12
 * where a payer id is configured); otherwise a person where the shipped table says so, else none.
 */
export function eligibilityPath(
  code: string,
  setting: { enabled: boolean; mode: 'assisted' | null },
  connector: { exists: boolean; local: boolean },
): EligibilityPath {
  if (!setting.enabled) return 'none';
  if (setting.mode === 'assisted') return 'assisted';
  if (connector.exists) return connector.local ? 'sandbox' : 'x12';
  return SHIPPED_INSURERS[code as InsurerCode]?.assistedByDefault ? 'assisted' : 'none';
}
