/**
 * Field decorators for request DTOs, one file per kind; this barrel keeps
 * `@/platform/http/validation/fields` the one import a DTO needs. Each decorator sets the
 * class-validator rules (with the DRF-style messages of docs/api.md, Errors) and the OpenAPI description
 * in one place, so a DTO field reads as one line and the docs cannot drift from the validation.
 */
export type { FieldOpts } from './base';
export { EmailField, isEmail, StringField, unstorableText } from './strings';
export type { StringOpts } from './strings';
export {
  DateField,
  isIsoDate,
  isTimestamp,
  TIMESTAMP_MESSAGE,
  TimestampField,
  timestampMs,
  timestampOffsetMinutes,
} from './dates';
export { todayIso } from '../../kernel/time';
export type { DateOpts } from './dates';
export { BoolField, DecimalField, IntField } from './numbers';
export type { DecimalOpts, IntOpts } from './numbers';
export { JsonObjectField, NestedField } from './objects';
export type { NestedOpts } from './objects';
export {
  CheckedListField,
  IntListField,
  NestedListField,
  objectItem,
  StringListField,
} from './lists';
export type { IntListOpts, ListOpts, StringListOpts } from './lists';
export { EachItem } from './item-errors';
export type { ItemCheck } from './item-errors';
