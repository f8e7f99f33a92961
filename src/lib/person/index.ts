/**
 * The door of the person vocabulary: the person and address shapes and formats (person.ts) and
 * the request fields (person.fields.ts) that patients, claims, eligibility, appointments,
 * verification and accounts share.
 */
export * from './person';
export * from './person.fields';
