import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { MaxLength } from 'class-validator';
import fc from 'fast-check';
import { badDates, injectionStrings, oddString } from '../../../../test/support/fuzz';
import { ValidationFailed } from '../../kernel/errors';
import {
  CreateDetailsDto,
  CreateEligibilityDto,
  EligibilityPatientDto,
} from '@/modules/eligibility/api/dto/create-eligibility.dto';
import { BoolField, DateField, NestedField, StringField, StringListField } from './fields';
import { fastTransform, REFUSE } from './fast-path';
import { createValidationPipe } from './validation-errors';

/**
 * The fast path may only accept what the full path (class-transformer + class-validator) accepts,
 * and must then give the same DTO. Checked here on thousands of bodies built from values near
 * every rule's edges (and the fuzz suite's bad values), compared with the full path of the
 * production pipe.
 */

const pipe = createValidationPipe();

/** The production pipe's full path only (Nest's own transform, without the fast path). */
async function fullPath(value: unknown, metatype: new () => object): Promise<unknown> {
  const meta: ArgumentMetadata = { type: 'body', metatype: metatype as never };
  try {
    return await ValidationPipe.prototype.transform.call(pipe, value, meta);
  } catch (e) {
    if (e instanceof ValidationFailed) return e;
    throw e;
  }
}

/** A body as the JSON parser hands it over (a fresh copy for each path). */
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** An instance's shape: its class and own properties, nested. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value !== 'object' || value === null) return value;
  return {
    class: value.constructor?.name,
    own: Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shape((value as Record<string, unknown>)[k])]),
    ),
  };
}

const ABSENT = Symbol('absent');
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** Drops the keys whose value is ABSENT (a JSON body has no undefined). */
function present(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== ABSENT));
}

/** Mostly a usual value, now and then an edge value of the field or any bad value. */
const field = (usual: unknown[], edges: unknown[]): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...usual) },
    { weight: 3, arbitrary: fc.constantFrom(...edges, ...lengthEdges, ...injectionStrings) },
    { weight: 1, arbitrary: fc.constantFrom(ABSENT, null, 0, true, [], {}) },
    // Bad values of any kind, within the body limits the JSON parser enforces before the pipe.
    { weight: 1, arbitrary: fc.oneof(oddString, fc.jsonValue({ maxDepth: 2 })) },
  );

/** Text at the length limits (16, 64, 100, 256), in ASCII and in astral characters. */
const lengthEdges = [16, 64, 100, 256].flatMap((n) => [
  'x'.repeat(n),
  'x'.repeat(n + 1),
  '😀'.repeat(n),
  '😀'.repeat(n + 1),
  ` ${'x'.repeat(n)} `,
]);

const codes = (n: number) => Array.from({ length: n }, (_, i) => `code-${i}`);

const patient = fc
  .record({
    first_name: field(['Maria'], [' Maria ', '', ' ']),
    last_name: field(['Garcia'], ['Garcia ', 'delay_30']),
    dob: field(['1984-06-15'], [...badDates, '1900-01-01', tomorrow, ' 1984-06-15']),
    zipcode: field(['78701'], ['78701-1234', ' 78701 ', '7870', '78701-12', 'abcde', '78701\n']),
    ssn_last_four: field(['6789', ABSENT, null], [' 6789 ', '678', '67890', '', '٦٧٨٩']),
    member_id: field(['VSP123456789', ABSENT, null], [' VSP1 ']),
    extra: fc.constantFrom(ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, 'x'),
  })
  .map(present);

const eligibilityBody = fc
  .record({
    insurer_code: field(['insurer:demo:vision', ABSENT], [' insurer:demo:vision ', 'nope']),
    insurer_code_list: field(
      [ABSENT],
      [
        ['insurer:demo:vision', 'insurer:vision:vsp'],
        ['insurer:demo:vision', 'insurer:demo:vision'],
        [' insurer:demo:vision'],
        [],
        codes(10),
        codes(11),
        [''],
        [null],
        [['a']],
        ['x'.repeat(65)],
        ['😀'.repeat(64)],
        ['a\u0000'],
      ],
    ),
    request_uid: field(['visit-1', ABSENT, null], [' visit-2 ']),
    location_code: field(['LOC7K2M9QXA', ABSENT, null, ''], ['   ']),
    patient: fc.oneof(
      { weight: 8, arbitrary: patient },
      { weight: 1, arbitrary: fc.constantFrom(ABSENT, null, [], 'patient') },
      { weight: 1, arbitrary: patient.map((p) => [p]) },
    ),
    wait_for: field([ABSENT, 'electronic', 'all', 'first_active'], [' electronic', 'none', '']),
    assisted: field([ABSENT, 'when_needed', 'never'], ['ALWAYS', 'sometimes']),
    max_age_hours: field(
      [ABSENT, 0, 72, 720],
      [-1, 721, 1.5, '72', ' 72 ', Number.MAX_SAFE_INTEGER + 1, NaN, -0, 1e3],
    ),
    unknown: fc.constantFrom(ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, 1),
  })
  .map(present);

describe('the validation fast path', () => {
  it('gives the full path’s DTO for every body it vouches for, over 6,000 bodies', async () => {
    let vouched = 0;
    let refusedButValid = 0;
    await fc.assert(
      fc.asyncProperty(eligibilityBody, async (input) => {
        const body = json(input);
        const fast = fastTransform(CreateEligibilityDto, json(body));
        const full = await fullPath(json(body), CreateEligibilityDto);
        if (fast === REFUSE) {
          if (!(full instanceof ValidationFailed)) refusedButValid++;
          return;
        }
        vouched++;
        expect(full).not.toBeInstanceOf(ValidationFailed);
        expect(shape(fast)).toEqual(shape(full));
      }),
      { seed: 20261122, numRuns: 6000 },
    );
    // Both kinds occur: the comparison above is not vacuous.
    expect(vouched).toBeGreaterThan(200);
    expect(refusedButValid).toBeGreaterThan(0);
  });

  it('vouches for the usual request, whose DTO is the full path’s', async () => {
    const input = {
      insurer_code: ' insurer:demo:vision ',
      request_uid: 'visit-2026-11-21-0042',
      patient: { first_name: ' Maria', last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' },
    };
    const fast = fastTransform(CreateEligibilityDto, json(input));
    expect(fast).toBeInstanceOf(CreateEligibilityDto);
    expect((fast as CreateEligibilityDto).patient).toBeInstanceOf(EligibilityPatientDto);
    expect((fast as CreateEligibilityDto).insurer_code).toBe('insurer:demo:vision');
    expect(shape(fast)).toEqual(shape(await fullPath(json(input), CreateEligibilityDto)));
  });

  it('leaves a class with a rule beside its field decorators to the full path', async () => {
    class Extra {
      @StringField({ required: true })
      @MaxLength(3)
      name: string;
    }
    class Inherited extends Extra {
      @StringField()
      other?: string | null;
    }
    class Plain {
      @StringField({ required: true })
      name: string;
    }
    expect(fastTransform(Extra, { name: 'abcdef' })).toBe(REFUSE);
    expect(await fullPath({ name: 'abcdef' }, Extra)).toBeInstanceOf(ValidationFailed);
    expect(fastTransform(Inherited, { name: 'abc' })).toBe(REFUSE);
    expect(fastTransform(Plain, { name: 'abcdef' })).toBeInstanceOf(Plain);
    // A class with a field decorator that registers no check (BoolField) goes the full way.
    class WithBool {
      @StringField({ required: true })
      name: string;
      @BoolField()
      flag?: boolean | null;
    }
    expect(fastTransform(WithBool, { name: 'abc', flag: true })).toBe(REFUSE);
    // IntField checks on the fast path: a details request's body is vouched for, as the full path holds it.
    const details = { request_uid: 'a', result_id: 1, person_id: 2 };
    expect(shape(fastTransform(CreateDetailsDto, details))).toEqual(
      shape(await fullPath(details, CreateDetailsDto)),
    );
  });

  it('covers choices, untrimmed and non-nullable strings, optional dates and nested objects', async () => {
    class Inner {
      @StringField({ choices: ['a', 'b'], trim: false, nullable: false })
      mode?: string;
    }
    class Outer {
      @DateField({ min: '2000-01-01' })
      since?: string | null;

      @NestedField(() => Inner)
      inner?: Inner | null;

      @StringListField({ maxItems: 2, itemMaxLength: 3, choices: ['x', 'y'] })
      tags?: string[] | null;
    }
    const input = fc
      .record({
        since: fc.constantFrom('2000-01-01', '1999-12-31', null, ABSENT, 3, '2000-02-30'),
        inner: fc.oneof(
          fc.record({ mode: fc.constantFrom('a', 'b', ' a', 'c', null, 1, ABSENT) }).map(present),
          fc.constantFrom({}, null, ABSENT, [], { mode: 'a', other: 1 }),
        ),
        tags: fc.constantFrom(
          ['x'],
          ['x', 'y'],
          ['x', 'y', 'x'],
          ['z'],
          [' x'],
          [],
          null,
          ABSENT,
          'x',
        ),
      })
      .map(present);
    let vouched = 0;
    await fc.assert(
      fc.asyncProperty(input, async (value) => {
        const fast = fastTransform(Outer, json(value));
        if (fast === REFUSE) return;
        vouched++;
        const full = await fullPath(json(value), Outer);
        expect(full).not.toBeInstanceOf(ValidationFailed);
        expect(shape(fast)).toEqual(shape(full));
      }),
      { seed: 7, numRuns: 1500 },
    );
    expect(vouched).toBeGreaterThan(100);
  });

  it('vouches for a subclass with its base’s fields, and leaves a redecorated field to the full path', async () => {
    class Base {
      @StringField({ required: true, maxLength: 5 })
      title?: string;
      @DateField({ min: '2000-01-01' })
      since?: string | null;
    }
    class Sub extends Base {
      @StringField({ choices: ['a', 'b'] })
      mode?: string | null;
    }
    class Redecorated extends Base {
      @StringField({ nullable: false, maxLength: 5 })
      declare title?: string;
    }
    const input = fc
      .record({
        title: fc.constantFrom('abc', ' abc ', 'abcdef', '', null, 1, ABSENT),
        since: fc.constantFrom('2000-01-01', '1999-12-31', null, ABSENT),
        mode: fc.constantFrom('a', 'c', null, ABSENT, ABSENT),
      })
      .map(present);
    let vouched = 0;
    await fc.assert(
      fc.asyncProperty(input, async (value) => {
        const fast = fastTransform(Sub, json(value));
        if (fast === REFUSE) return;
        vouched++;
        expect(shape(fast)).toEqual(shape(await fullPath(json(value), Sub)));
      }),
      { seed: 11, numRuns: 500 },
    );
    // `title` is required: every vouched body had the base's fields checked.
    expect(vouched).toBeGreaterThan(50);
    expect(fastTransform(Redecorated, { title: 'abc' })).toBe(REFUSE);
    expect(await fullPath({}, Redecorated)).toBeInstanceOf(Redecorated);
    expect(await fullPath({ title: null }, Redecorated)).toBeInstanceOf(ValidationFailed);
  });

  it('answers through the production pipe: the DTO when valid, the contract’s errors when not', async () => {
    const meta: ArgumentMetadata = { type: 'body', metatype: CreateEligibilityDto };
    const dto = await pipe.transform(
      {
        insurer_code: 'insurer:demo:vision',
        patient: { first_name: 'A', last_name: 'B', dob: '1984-06-15', zipcode: '78701' },
      },
      meta,
    );
    expect(dto).toBeInstanceOf(CreateEligibilityDto);
    await expect(
      pipe.transform(
        { patient: { first_name: 'A', last_name: 'B', dob: tomorrow, zipcode: '1' } },
        meta,
      ),
    ).rejects.toMatchObject({
      errors: {
        patient: {
          dob: { $: ['Date may not be in the future.'] },
          zipcode: { $: ['Enter a valid ZIP code (NNNNN or NNNNN-NNNN).'] },
        },
      },
    });
  });
});
