import type { ApiScope } from '@/platform/http/scopes';
/**
 * The MCP tools' definitions and the JSON schemas they list (docs/api.md, MCP). The schemas
 * describe the arguments; the tools validate them as the JSON routes validate their bodies
 * (the same DTOs), so a bad field is named the way the route's 400 names it.
 */
type JsonSchema = Record<string, unknown>;

const str = (description: string, extra: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  description,
  ...extra,
});
const date = (description: string): JsonSchema => str(description, { format: 'date' });
const money = (description = 'The retail price, a decimal string such as "189.00".') =>
  str(description, { pattern: '^\\d+(\\.\\d{1,4})?$' });

const object = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
});

const PERSON = {
  first_name: str('First name.'),
  last_name: str('Last name.'),
  dob: date('Date of birth, YYYY-MM-DD.'),
  member_id: str('The member id on the insurance card.'),
};

const REQUEST_UID = str('The `request_uid` of an eligibility request of your account.');

const WAIT_SECONDS: JsonSchema = {
  type: 'integer',
  minimum: 0,
  maximum: 50,
  description:
    'How long to wait for the answer, in seconds (at most and by default 50); past it the tool ' +
    'answers the request uid and the state so far (then call get_eligibility).',
};

export const CHECK_ELIGIBILITY_SCHEMA = object(
  {
    insurer_code: str('One insurer code (list_insurers), e.g. "insurer:demo:vision".'),
    insurer_code_list: {
      type: 'array',
      items: { type: 'string' },
      maxItems: 10,
      description: 'Universal Search: up to 10 insurer codes, asked insurer by insurer.',
    },
    request_uid: str('Your own unique id for the request (else one is made).'),
    location_code: str('A location code of your account (empty: the default location).'),
    patient: object(
      {
        ...PERSON,
        zipcode: str('ZIP code, 5 digits.'),
        ssn_last_four: str('The last four digits of the SSN.'),
      },
      ['first_name', 'last_name', 'dob', 'zipcode'],
    ),
    subscriber: object(
      { ...PERSON, relationship: str('How the patient is related to the subscriber.') },
      ['first_name', 'last_name', 'dob'],
    ),
    wait_for: str('When the answer is complete.', {
      enum: ['all', 'electronic', 'first_active'],
    }),
    assisted: str('Whether people may check insurers without electronic eligibility.', {
      enum: ['when_needed', 'always', 'never'],
    }),
    wait_seconds: WAIT_SECONDS,
  },
  ['patient'],
);

export const BY_REQUEST_UID_SCHEMA = object({ request_uid: REQUEST_UID }, ['request_uid']);

const RETAIL_LINE = (extra: Record<string, JsonSchema> = {}, required: string[] = []) =>
  object({ ...extra, retail: money() }, [...required, 'retail']);

export const QUOTE_MATERIALS_SCHEMA = object(
  {
    request_uid: REQUEST_UID,
    person_id: {
      type: 'integer',
      description: 'The `id` of a person of that result (`persons[].id`).',
    },
    date_of_service: date('The day of the order (default today).'),
    patient_age: { type: 'integer', minimum: 0, description: "The patient's age, when needed." },
    order: object({
      frame: RETAIL_LINE(),
      lenses: RETAIL_LINE(
        { type: str('The lens type, e.g. "single_vision"'), tier: { type: 'integer' } },
        ['type'],
      ),
      lens_options: {
        type: 'array',
        items: RETAIL_LINE({ option: str('The option, e.g. "anti_reflective_standard"') }, [
          'option',
        ]),
      },
      contact_lenses: RETAIL_LINE(
        { kind: str('Contact lenses', { enum: ['elective', 'medically_necessary'] }) },
        ['kind'],
      ),
      fitting: RETAIL_LINE({ kind: str('Fitting', { enum: ['standard', 'premium'] }) }, ['kind']),
      in_lieu_keep: str('Which side of an in-lieu-of pair the plan covers.', {
        enum: ['contact_lenses', 'frame', 'lenses'],
      }),
    }),
  },
  ['request_uid', 'person_id', 'order'],
);

export const SCHEDULE_AT_RISK_SCHEMA = object(
  {
    date: date("The day, YYYY-MM-DD (the practice's visits of that calendar day)."),
    utc_offset: str('The offset of the day, e.g. "-06:00" (default "+00:00").', {
      pattern: '^[+-]\\d{2}:\\d{2}$',
    }),
    location_code: str('Only the appointments of this location.'),
  },
  ['date'],
);

export const NO_ARGUMENTS_SCHEMA = object({});

export interface McpToolDefinition {
  name: string;
  title: string;
  description: string;
  /** The scopes of the routes it wraps, all needed (`[]`: any key). */
  scopes: ApiScope[];
  inputSchema: Record<string, unknown>;
}

/** The tools, in the order `tools/list` answers them (docs/api.md, MCP). */
export const DEFINITIONS: McpToolDefinition[] = [
  {
    name: 'check_eligibility',
    title: 'Check eligibility',
    description:
      "Starts an eligibility check (the JSON route's body: insurer_code or insurer_code_list, " +
      'patient, …) and waits for its answer, at most 50 seconds; answers the V2 result in a ' +
      'compact form, or the request uid and the state so far (then call get_eligibility). The ' +
      'sandbox insurer is insurer:demo:vision.',
    scopes: ['eligibility:write'],
    inputSchema: CHECK_ELIGIBILITY_SCHEMA,
  },
  {
    name: 'get_eligibility',
    title: 'Get an eligibility result',
    description:
      'The V2 result of an eligibility request of your account by its request_uid, compact: ' +
      "each plan, its persons and each benefit's in-network money and dates.",
    scopes: ['eligibility:read'],
    inputSchema: BY_REQUEST_UID_SCHEMA,
  },
  {
    name: 'explain_benefits',
    title: 'Explain what the patient can have, and when',
    description:
      'In sentences, per person of an eligibility result: which benefits (exam, frames, lenses, ' +
      'contact lenses) are available now and which not before a date, and why (the frequency, ' +
      'the last service, a date the payer states).',
    scopes: ['eligibility:read'],
    inputSchema: BY_REQUEST_UID_SCHEMA,
  },
  {
    name: 'quote_materials',
    title: 'Quote materials (the counter)',
    description:
      "What the patient pays for an order (frame, lenses, lens options, contact lenses, fitting) on a person's plan of " +
      'a complete eligibility result: the same quote as POST /api/auth/v1/quotes/, stored.',
    scopes: ['eligibility:read'],
    inputSchema: QUOTE_MATERIALS_SCHEMA,
  },
  {
    name: 'schedule_at_risk',
    title: "A day's appointments at risk",
    description:
      "The day's appointments whose coverage is not active (inactive, no plan, failed, waiting " +
      'for a person, checking, not checked), each with why.',
    scopes: ['appointments:read', 'eligibility:read'],
    inputSchema: SCHEDULE_AT_RISK_SCHEMA,
  },
  {
    name: 'list_insurers',
    title: 'List insurers',
    description:
      'The insurer codes this account can check, with their names and how eligibility reaches ' +
      'them (sandbox, x12, assisted or none).',
    scopes: [],
    inputSchema: NO_ARGUMENTS_SCHEMA,
  },
];
