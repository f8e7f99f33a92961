import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { MaxLength } from 'class-validator';
import { ValidationFailed } from '../errors';
import {
  CreateEligibilityDto,
  EligibilityPatientDto,
} from '@/modules/eligibility/dto/create-eligibility.dto';
import { CreateDetailsDto } from '@/modules/eligibility/dto/create-eligibility.dto';
import { DateField, NestedField, StringField, StringListField } from './fields';
import { fastTransform, REFUSE } from './fast-path';
import { createValidationPipe } from './validation-errors';

/**
 * The fast path may only accept what the full path (class-transformer + class-validator) accepts,
 * and must then give the same DTO. Checked here on thousands of bodies built from values near
 * every rule's edges, compared with the full path of the production pipe.
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

/** Deterministic choice (mulberry32), so a failure can be replayed. */
function chooser(seed: number) {
  let state = seed >>> 0;
  return <T>(values: readonly T[]): T => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return values[Math.floor(r * values.length)];
  };
}

const ABSENT = Symbol('absent');
const today = new Date().toISOString().slice(0, 10);
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const strings = [
  '',
  ' ',
  '  padded  ',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  '😀',
  '😀'.repeat(64),
  '😀'.repeat(65),
  'e\u0301',
  "Robert'); DROP TABLE eligibility_requests;--",
  '<script>alert(1)</script>',
  'x'.repeat(16),
  'x'.repeat(17),
  'x'.repeat(64),
  'x'.repeat(65),
  'x'.repeat(100),
  'x'.repeat(101),
  'x'.repeat(256),
  'x'.repeat(257),
  ' \t\n',
];
const wrongTypes = [null, 0, 1.5, true, false, [], ['a'], {}, { a: 1 }, ABSENT];
const field = {
  insurer_code: ['insurer:demo:vision', ' insurer:demo:vision ', 'insurer:vision:vsp', ...strings],
  insurer_code_list: [
    ['insurer:demo:vision'],
    ['insurer:demo:vision', 'insurer:vision:vsp'],
    ['insurer:demo:vision', 'insurer:demo:vision'],
    [' insurer:demo:vision'],
    [],
    Array.from({ length: 10 }, (_, i) => `code-${i}`),
    Array.from({ length: 11 }, (_, i) => `code-${i}`),
    [''],
    [' '],
    [null],
    [1],
    [['a']],
    ['x'.repeat(65)],
    ['😀'.repeat(64)],
    ['a\u0000'],
    'insurer:demo:vision',
  ],
  request_uid: ['visit-1', ' visit-2 ', ...strings],
  location_code: ['LOC7K2M9QXA', '', '   ', ...strings],
  first_name: ['Maria', ' Maria ', ...strings],
  last_name: ['Garcia', 'Garcia ', 'delay_30', ...strings],
  dob: [
    '1984-06-15',
    ' 1984-06-15',
    '1984-6-15',
    '2023-02-30',
    '1899-12-31',
    '1900-01-01',
    today,
    tomorrow,
    '0000-01-01',
    '19840615',
    '',
  ],
  zipcode: ['78701', '78701-1234', ' 78701 ', '7870', '78701-12', '', 'abcde', '78701\n'],
  ssn_last_four: ['6789', ' 6789 ', '678', '67890', '', 'abcd', '٦٧٨٩'],
  member_id: ['VSP123456789', ' VSP1 ', ...strings],
};

/** Valid values of each field, with the edge values above mixed in now and then. */
const usual: Record<keyof typeof field, readonly unknown[]> = {
  insurer_code: ['insurer:demo:vision', ABSENT],
  insurer_code_list: [ABSENT],
  request_uid: ['visit-1', ABSENT, null],
  location_code: ['LOC7K2M9QXA', ABSENT, null, ''],
  first_name: ['Maria'],
  last_name: ['Garcia'],
  dob: ['1984-06-15'],
  zipcode: ['78701'],
  ssn_last_four: ['6789', ABSENT, null],
  member_id: ['VSP123456789', ABSENT, null],
};

function body(pick: ReturnType<typeof chooser>): unknown {
  const value = (name: keyof typeof field): unknown =>
    pick([1, 2, 3, 4, 5, 6, 7, 8]) <= 6
      ? pick(usual[name])
      : pick([...(field[name] as readonly unknown[]), ...wrongTypes]);
  const patient: Record<string, unknown> = {};
  for (const name of [
    'first_name',
    'last_name',
    'dob',
    'zipcode',
    'ssn_last_four',
    'member_id',
  ] as const)
    patient[name] = value(name);
  if (pick([1, 2, 3, 4, 5, 6, 7, 8]) === 1) patient.extra = 'x';
  const out: Record<string, unknown> = {
    insurer_code: value('insurer_code'),
    insurer_code_list: value('insurer_code_list'),
    request_uid: value('request_uid'),
    location_code: value('location_code'),
    patient: pick([
      patient,
      patient,
      patient,
      patient,
      patient,
      null,
      [],
      'patient',
      ABSENT,
      [patient],
    ]),
  };
  if (pick([1, 2, 3, 4, 5, 6, 7, 8]) === 1) out.unknown = 1;
  for (const key of Object.keys(out)) if (out[key] === ABSENT) delete out[key];
  for (const key of Object.keys(patient)) if (patient[key] === ABSENT) delete patient[key];
  return out;
}

describe('the validation fast path', () => {
  it('gives the full path’s DTO for every body it vouches for, over 6,000 bodies', async () => {
    const pick = chooser(20261122);
    let vouched = 0;
    let refusedButValid = 0;
    for (let i = 0; i < 6000; i++) {
      const input = body(pick);
      const fast = fastTransform(CreateEligibilityDto, json(input));
      const full = await fullPath(json(input), CreateEligibilityDto);
      if (fast === REFUSE) {
        if (!(full instanceof ValidationFailed)) refusedButValid++;
        continue;
      }
      vouched++;
      if (full instanceof ValidationFailed)
        throw new Error(
          `fast path accepted ${JSON.stringify(input)}: ${JSON.stringify(full.errors)}`,
        );
      expect({ input, dto: shape(fast) }).toEqual({ input, dto: shape(full) });
    }
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
    // A class with a field decorator that registers no check (IntField) goes the full way.
    expect(fastTransform(CreateDetailsDto, { request_uid: 'a', result_id: 1, person_id: 2 })).toBe(
      REFUSE,
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
    const pick = chooser(7);
    let vouched = 0;
    for (let i = 0; i < 1500; i++) {
      const input: Record<string, unknown> = {
        since: pick(['2000-01-01', '1999-12-31', null, ABSENT, 3, '2000-02-30']),
        inner: pick([
          { mode: pick(['a', 'b', ' a', 'c', null, 1, ABSENT]) },
          {},
          null,
          ABSENT,
          [],
          { mode: 'a', other: 1 },
        ]),
        tags: pick([['x'], ['x', 'y'], ['x', 'y', 'x'], ['z'], [' x'], [], null, ABSENT, 'x']),
      };
      for (const key of Object.keys(input)) if (input[key] === ABSENT) delete input[key];
      const inner = input.inner as Record<string, unknown> | undefined;
      if (inner && inner.mode === ABSENT) delete inner.mode;
      const fast = fastTransform(Outer, json(input));
      if (fast === REFUSE) continue;
      vouched++;
      const full = await fullPath(json(input), Outer);
      expect(full).not.toBeInstanceOf(ValidationFailed);
      expect({ input, dto: shape(fast) }).toEqual({ input, dto: shape(full) });
    }
    expect(vouched).toBeGreaterThan(100);
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
