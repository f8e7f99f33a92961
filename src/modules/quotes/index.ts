/**
 * The door of the quotes module (docs/api.md, The counter): what other modules use of it.
 */
export {};
