import { applyDecorators, SetMetadata } from '@nestjs/common';

/**
 * API key scopes (SECURITY.md): an area and an access, `patients:read`. `write` implies `read`.
 * A key holds the scopes chosen at its creation (default: every area's); every route under /api/
 * declares the one it needs with @RequireScope, and ScopeGuard refuses a key without it (403).
 * `verification:credentials` (docs/api.md, Insurers and assisted verification: the insurer
 * passwords) is never implied nor a default: a key holds it only when it was chosen.
 */
export const SCOPE_AREAS = [
  'eligibility',
  'patients',
  'claims',
  'webhooks',
  'audit',
  'verification',
  'appointments',
] as const;
type ScopeArea = (typeof SCOPE_AREAS)[number];
type ScopeAccess = 'read' | 'write';
export const CREDENTIALS_SCOPE = 'verification:credentials';
export type ApiScope = `${ScopeArea}:${ScopeAccess}` | typeof CREDENTIALS_SCOPE;

/** Every area's read and write: a key's default, and what "all" means in forms and the CLI. */
export const ALL_SCOPES: readonly ApiScope[] = SCOPE_AREAS.flatMap((area) => [
  `${area}:read` as ApiScope,
  `${area}:write` as ApiScope,
]);

/** Every scope a key may hold: the areas' and the credentials scope. */
export const KNOWN_SCOPES: readonly ApiScope[] = [...ALL_SCOPES, CREDENTIALS_SCOPE];

/**
 * The write scopes a key needs to act as the account's web user in an embedded session
 * (docs/api.md, Embedded sessions): the areas an embedded page reaches.
 */
export const EMBED_SCOPES: readonly ApiScope[] = [
  'eligibility:write',
  'patients:write',
  'claims:write',
  'webhooks:write',
  'audit:write',
];

/** What the 403 names: "This API key is not allowed to read patients." */
const AREA_NOUNS: Record<ScopeArea, string> = {
  eligibility: 'eligibility requests',
  patients: 'patients',
  claims: 'claims',
  webhooks: 'webhooks',
  audit: 'audit events',
  verification: 'verification tasks',
  appointments: 'appointments',
};

export function scopeAction(scope: ApiScope): string {
  if (scope === CREDENTIALS_SCOPE) return 'read the insurer passwords of verification tasks';
  const [area, access] = scope.split(':') as [ScopeArea, ScopeAccess];
  return `${access} ${AREA_NOUNS[area]}`;
}

export function isApiScope(value: string): value is ApiScope {
  return (KNOWN_SCOPES as readonly string[]).includes(value);
}

/**
 * True when the held scopes grant `needed` (the area's `write` grants its `read`; nothing grants
 * `verification:credentials` but itself).
 */
export function grants(held: readonly string[], needed: ApiScope): boolean {
  if (held.includes(needed)) return true;
  const [area, access] = needed.split(':');
  return access === 'read' && held.includes(`${area}:write`);
}

/**
 * The stored form of a choice: one scope per area, `write` when it was chosen (it includes
 * `read`), in the order of SCOPE_AREAS, then the credentials scope when chosen. Duplicates and a
 * redundant `read` disappear.
 */
export function normalizeScopes(chosen: readonly ApiScope[]): ApiScope[] {
  const out: ApiScope[] = [];
  for (const area of SCOPE_AREAS) {
    if (chosen.includes(`${area}:write`)) out.push(`${area}:write`);
    else if (chosen.includes(`${area}:read`)) out.push(`${area}:read`);
  }
  if (chosen.includes(CREDENTIALS_SCOPE)) out.push(CREDENTIALS_SCOPE);
  return out;
}

/** Parses `eligibility:read,patients:write` (CLI); throws a message naming a bad one. */
export function parseScopeList(text: string): ApiScope[] {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new Error('--scopes: give at least one scope');
  const bad = parts.filter((s) => !isApiScope(s));
  if (bad.length > 0)
    throw new Error(
      `--scopes: unknown scope ${bad.join(', ')} (known: ${KNOWN_SCOPES.join(', ')})`,
    );
  return normalizeScopes(parts as ApiScope[]);
}

export const REQUIRED_SCOPES = 'vision:requiredScopes';

export interface ScopeRequirement {
  scopes: ApiScope[];
  /** The words of the 403 when they are not the scope's own ("open embedded sessions"). */
  action?: string;
}

/** The 403 answer's text. */
export function scopeRefusal(action: string): string {
  return `This API key is not allowed to ${action}.`;
}

/**
 * The scope a route needs (all of them, when several are given), and its 403 in the OpenAPI
 * document. Put it above the route's other decorators: a 403 the route already documents keeps
 * its example and gains this cause in its description.
 */
export function RequireScope(scopes: ApiScope | ApiScope[], action?: string): MethodDecorator {
  const list = Array.isArray(scopes) ? scopes : [scopes];
  // `[]`: any valid key (a door whose answer is cut to the key's scopes, the MCP tool list).
  if (list.length === 0)
    return SetMetadata(REQUIRED_SCOPES, { scopes: [] } satisfies ScopeRequirement);
  const words = action ?? scopeAction(list[0]);
  const names = list.map((s) => `\`${s}\``).join(', ');
  return applyDecorators(
    SetMetadata(REQUIRED_SCOPES, { scopes: list, action } satisfies ScopeRequirement),
    documentRefusal(
      `The API key lacks the scope ${names} (\`write\` includes \`read\`).`,
      scopeRefusal(words),
    ),
  );
}

// @nestjs/swagger's metadata key for @ApiResponse (not exported by the package).
const API_RESPONSE_METADATA = 'swagger/apiResponse';

type Responses = Record<string, { description?: string; [k: string]: unknown }>;

function documentRefusal(description: string, detail: string): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const method = descriptor.value as object;
    const responses = {
      ...((Reflect.getMetadata(API_RESPONSE_METADATA, method) as Responses | undefined) ?? {}),
    };
    const existing = responses['403'];
    responses['403'] = existing
      ? { ...existing, description: `${existing.description ?? ''} Or: ${description}`.trim() }
      : {
          description,
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/ErrorDetail' },
              example: { detail },
            },
          },
        };
    Reflect.defineMetadata(API_RESPONSE_METADATA, responses, method);
    return descriptor;
  };
}
