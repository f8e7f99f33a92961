import { TransformationType } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage } from 'class-validator';

/**
 * The validation pipe's fast path: a plainly valid body becomes its DTO without class-transformer
 * and class-validator (about a fifth of a POST's CPU, bench/README.md). Each field decorator
 * registers a check that answers the value as the DTO holds it, or REFUSE ("not vouched for":
 * the full path then answers), so the fast path accepts only what the full path accepts.
 * A class whose metadata counts differ from its checks' (a rule beside a field decorator,
 * @Expose, a property redecorated) always takes the full path.
 */
export const REFUSE: unique symbol = Symbol('refuse');

/** The value as the DTO holds it, or REFUSE. */
type FastCheck = (value: unknown) => unknown;

/** A DTO class. */
type Ctor = new () => object;

interface FastField {
  check: FastCheck;
  validations: number;
  transforms: number;
}

const registered = new Map<Ctor, Map<string, FastField>>();
const plans = new WeakMap<Ctor, Map<string, FastField> | null>();

interface Counts {
  validations: number;
  transforms: number;
}

function countsOf(ctor: Ctor, property: string): Counts {
  const validations = (
    getMetadataStorage().getTargetValidationMetadatas(ctor, '', true, false) ?? []
  ).filter((m) => m.propertyName === property).length;
  const transforms =
    defaultMetadataStorage.findTransformMetadatas(ctor, property, TransformationType.PLAIN_TO_CLASS)
      .length + (defaultMetadataStorage.findTypeMetadata(ctor, property) ? 1 : 0);
  return { validations, transforms };
}

/**
 * A field decorator's list with its fast check around it: the first decorator notes the
 * metadata counts of the property, the last registers the check with what the list added.
 */
export function withFastCheck(
  decorators: PropertyDecorator[],
  check: FastCheck,
): PropertyDecorator[] {
  let before: Counts | null = null;
  const start: PropertyDecorator = (target, property) => {
    if (typeof property === 'string') before = countsOf(target.constructor as Ctor, property);
  };
  const end: PropertyDecorator = (target, property) => {
    if (typeof property !== 'string' || !before) return;
    const after = countsOf(target.constructor as Ctor, property);
    const fields = registered.get(target.constructor as Ctor) ?? new Map<string, FastField>();
    registered.set(target.constructor as Ctor, fields);
    fields.set(property, {
      check,
      validations: after.validations - before.validations,
      transforms: after.transforms - before.transforms,
    });
    before = null;
  };
  return [start, ...decorators, end];
}

/** The checks of a class, when its every rule and transform is vouched for; else null. */
function plan(ctor: Ctor): Map<string, FastField> | null {
  if (plans.has(ctor)) return plans.get(ctor)!;
  const compiled = compile(ctor);
  plans.set(ctor, compiled);
  return compiled;
}

/** The checks a class and its base classes registered, base first (a redecorated one: its own). */
function inherited(ctor: Ctor): Map<string, FastField> {
  const base = Object.getPrototypeOf(ctor) as Ctor;
  const fields = base === Function.prototype ? [] : inherited(base);
  return new Map([...fields, ...(registered.get(ctor) ?? [])]);
}

function compile(ctor: Ctor): Map<string, FastField> | null {
  const fields = inherited(ctor);
  if (fields.size === 0) return null;
  if (
    defaultMetadataStorage.getExposedMetadatas(ctor).length > 0 ||
    defaultMetadataStorage.getExcludedMetadatas(ctor).length > 0
  )
    return null;
  const properties = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(ctor, '', true, false)
      .map((m) => m.propertyName),
  );
  for (const property of properties) if (!fields.has(property)) return null;
  for (const [property, field] of fields) {
    const now = countsOf(ctor, property);
    if (now.validations !== field.validations || now.transforms !== field.transforms) return null;
  }
  return fields;
}

/** A JSON object as a body parser makes it (not null, not a list, not another class's instance). */
function isJsonObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}

/** The DTO of `value` when the fast path vouches for it, else REFUSE. */
export function fastTransform(ctor: Ctor, value: unknown): object | typeof REFUSE {
  const fields = plan(ctor);
  if (!fields || !isJsonObject(value)) return REFUSE;
  for (const key of Object.keys(value)) if (!fields.has(key)) return REFUSE;
  const out = new ctor() as Record<string, unknown>;
  for (const [key, field] of fields) {
    const present = Object.hasOwn(value, key);
    const held = field.check(present ? value[key] : undefined);
    if (held === REFUSE) return REFUSE;
    if (present) out[key] = held;
  }
  return out;
}

/**
 * The presence rules of FieldOpts (base.ts) around a check of a present value: required fields
 * must be there and not null; optional ones may be absent, and null unless `nullable` is false.
 */
export function presentThen(
  opts: { required?: boolean; nullable?: boolean },
  check: FastCheck,
): FastCheck {
  const required = opts.required ?? false;
  const nullable = opts.nullable ?? !required;
  return (value) => {
    if (value === undefined) return required ? REFUSE : undefined;
    if (value === null) return required || !nullable ? REFUSE : null;
    return check(value);
  };
}
