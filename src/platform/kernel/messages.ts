/** DRF-style messages fixed by docs/api.md, Errors. */
export const MSG = {
  required: 'This field is required.',
  notNull: 'This field may not be null.',
  blank: 'This field may not be blank.',
  string: 'Not a valid string.',
  integer: 'A valid integer is required.',
  number: 'A valid number is required.',
  boolean: 'Must be a valid boolean.',
  date: 'Date has wrong format. Use YYYY-MM-DD.',
  email: 'Enter a valid email address.',
  object: 'Invalid data. Expected a dictionary.',
  list: 'Expected a list of items.',
  invalidItems: 'Some elements of this list are not valid.',
  choice: (value: unknown) => `"${String(value)}" is not a valid choice.`,
  maxLength: (n: number) => `Ensure this field has no more than ${n} characters.`,
  minItems: (n: number) => `Ensure this field has at least ${n} elements.`,
  maxItems: (n: number) => `Ensure this field has no more than ${n} elements.`,
  nullCharacters: 'Null characters are not allowed.',
  surrogates: 'Surrogate characters are not allowed.',
  tooManyValues: (n: number) => `Too many values in the body (at most ${n}).`,
  tooDeep: (n: number) => `The body is nested too deeply (at most ${n} levels).`,
  malformedJson: 'Malformed JSON body.',
  tooLarge: 'Request body too large.',
  unsupportedEncoding: 'Unsupported body encoding; send UTF-8 JSON.',
  jsonOnly: 'Send the body as application/json.',
  jsonOrTextOnly: 'Send the body as application/json or text/plain.',
  unknownInsurer: (code: string) => `Unknown insurer code: ${code}.`,
  internal: 'Internal server error.',
  // Second messages (docs/api.md, Errors): each follows one of the above in the same list.
  impossibleDate: (value: string, days: number) =>
    `${value} is not a date: that month has ${days} days.`,
  allowedChoices: (choices: readonly string[]) => `Allowed values: ${choices.join(', ')}.`,
  didYouMean: (code: string) => `Did you mean ${code}?`,
  notFound: 'Not found.',
  // The `hint` of a 404 for a path that is no route (docs/api.md, Conventions: paths).
  noApiPrefixHint:
    'API paths start with /api/auth/v1/ (and /api/auth/v2/ for the V2 eligibility result); the routes are listed at /docs.',
  noRouteHint:
    'No route at this path: paths are case-sensitive and end with /; the routes are listed at /docs.',
} as const;
