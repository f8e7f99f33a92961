import request from 'supertest';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import {
  EXAMPLE_NEXT_ELIGIBLE_REQUEST,
  EXAMPLE_NEXT_ELIGIBLE_RESPONSE,
} from '@/modules/estimates/api/next-eligible.examples';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { MSG } from '@/platform/kernel/messages';
import { PERIOD_KINDS, SERVICE_SOURCES } from '@/lib/benefits/next-eligible.types';

const URL = '/api/auth/v1/benefits/next-eligible/';
const EXAM = 'exam.routine';
const rolling = (months: number | null, rest: Record<string, unknown> = {}) => ({
  benefit_code: EXAM,
  frequency: { count: 1, period: { kind: 'rolling', months } },
  ...rest,
});

describe('next eligible dates (docs/api.md, Next eligible dates)', () => {
  let t: TestApp;
  let a: TestAccount;
  const http = () => request(t.app.getHttpServer());
  const post = (body: unknown, url = URL) =>
    http()
      .post(url)
      .set(a.auth)
      .send(body as object);

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the documented example exactly, with or without the trailing slash', async () => {
    for (const url of [URL, URL.slice(0, -1)]) {
      const res = await post(EXAMPLE_NEXT_ELIGIBLE_REQUEST, url);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(EXAMPLE_NEXT_ELIGIBLE_RESPONSE);
    }
  });

  it('counts a rolling period from the last service with month ends clamped', async () => {
    const res = await post({
      as_of: '2024-01-31',
      rules: [rolling(1)],
      history: [{ benefit_code: EXAM, date: '2024-01-31' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual([
      {
        benefit_code: EXAM,
        next_eligible: {
          date: '2024-02-29',
          basis: 'computed',
          explanation: [
            'Routine exam: once every 1 month, counted from the last service.',
            'The last service that counts was on 2024-01-31; a new one is allowed from ' +
              '2024-02-29, 1 month after it.',
          ],
        },
        last_service: { date: '2024-01-31', source: 'staff' },
      },
    ]);
  });

  it('needs the API key and the eligibility:read scope', async () => {
    await http().post(URL).send(EXAMPLE_NEXT_ELIGIBLE_REQUEST).expect(401);
    const { key } = await t.app
      .get(ApiKeysService)
      .create(a.accountId, 'patients only', ['patients:read']);
    const res = await http()
      .post(URL)
      .set({ Authorization: `Api ${key}` })
      .send(EXAMPLE_NEXT_ELIGIBLE_REQUEST);
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/^This API key is not allowed to /);
  });

  it('reports every bad field of a request at once, under its path', async () => {
    const res = await post({
      as_of: '2026-02-30',
      rules: [
        { benefit_code: EXAM, frequency: { count: 0, period: { kind: 'weekly' } } },
        rolling(null, { benefit_code: 'materials.frames' }),
        {
          benefit_code: 'bad code!',
          frequency: { count: 1, period: { kind: 'rolling', months: 12 } },
        },
        // Its plan begin date is given, refused for itself: no second error here.
        { benefit_code: 'exam.medical', frequency: { count: 1, period: { kind: 'plan_year' } } },
      ],
      history: [{ benefit_code: EXAM, date: '15/01/2025' }, 'x'],
      plan: { begin_date: 'soon' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: {
        as_of: {
          $: [
            'Date has wrong format. Use YYYY-MM-DD.',
            '2026-02-30 is not a date: that month has 28 days.',
          ],
        },
        rules: {
          '0': {
            frequency: {
              count: { $: ['Ensure this value is greater than or equal to 1.'] },
              period: {
                kind: { $: ['"weekly" is not a valid choice.', MSG.allowedChoices(PERIOD_KINDS)] },
              },
            },
          },
          '1': {
            frequency: {
              period: { months: { $: ['A rolling period needs its length in months.'] } },
            },
          },
          '2': { benefit_code: { $: ['Letters, digits, dots, hyphens and underscores only.'] } },
        },
        history: {
          '0': { date: { $: ['Date has wrong format. Use YYYY-MM-DD.'] } },
          '1': { $: ['Invalid data. Expected a dictionary.'] },
        },
        plan: { begin_date: { $: ['Date has wrong format. Use YYYY-MM-DD.'] } },
      },
    });
  });

  it('refuses what the fields alone allow: unknown benefits, duplicates, periods without what they need', async () => {
    const res = await post({
      as_of: '2026-01-15',
      rules: [
        rolling(12),
        rolling(6),
        {
          benefit_code: 'materials.frames',
          frequency: {
            count: 1,
            period: { kind: 'plan_year', months: 18 },
            shared_with: ['materials.frames', 'materials.contact_lenses'],
          },
        },
      ],
      history: [
        { benefit_code: 'materials.contact_lenses', date: '2025-01-01' },
        { benefit_code: 'material.frames', date: '2025-01-01' },
        { benefit_code: 'exam.routine.extended', date: '2025-01-01' },
      ],
      plan: { end_date: '2025-12-31' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: {
        rules: {
          '1': { benefit_code: { $: ['Each benefit has one rule: exam.routine is named twice.'] } },
          '2': {
            frequency: {
              period: {
                months: {
                  $: [
                    'Calendar-year and plan-year periods last whole years: 12, 24, 36, … months.',
                  ],
                },
                kind: { $: ['A plan-year period needs plan.begin_date.'] },
              },
              shared_with: { '0': { $: ['A benefit does not share with itself.'] } },
            },
          },
        },
      },
    });
    // With the rules right, the history entry no rule counts is named (a benefit under a rule's
    // and one a rule shares with are counted).
    const fixed = await post({
      as_of: '2026-01-15',
      rules: [
        rolling(12),
        {
          benefit_code: 'materials.frames',
          frequency: {
            count: 1,
            period: { kind: 'rolling', months: 24 },
            shared_with: ['materials.contact_lenses'],
          },
        },
      ],
      history: [
        { benefit_code: 'materials.contact_lenses', date: '2025-01-01' },
        { benefit_code: 'material.frames', date: '2025-01-01' },
        { benefit_code: 'exam.routine.extended', date: '2025-01-01' },
      ],
      plan: { begin_date: '2026-01-01', end_date: '2025-12-31' },
    });
    expect(fixed.status).toBe(400);
    expect(fixed.body).toEqual({
      errors: {
        history: {
          '1': {
            benefit_code: {
              $: [
                "No rule counts services of material.frames: give it a rule, name it in a rule's " +
                  'shared_with, or leave the entry out.',
              ],
            },
          },
        },
        plan: { end_date: { $: ['The end date may not be before the begin date.'] } },
      },
    });
  });

  it('reports the cross-field errors beside the field errors of a refused body', async () => {
    const res = await post({
      as_of: 'today',
      rules: [rolling(null), rolling(12)],
      history: [],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      as_of: { $: ['Date has wrong format. Use YYYY-MM-DD.'] },
      rules: {
        '0': {
          frequency: {
            period: { months: { $: ['A rolling period needs its length in months.'] } },
          },
        },
        '1': { benefit_code: { $: ['Each benefit has one rule: exam.routine is named twice.'] } },
      },
    });
  });

  it('refuses missing and mistyped fields, never with a 500', async () => {
    const bodies: unknown[] = [
      {},
      { as_of: '2026-01-15', rules: [], history: [] },
      { as_of: '2026-01-15', rules: 'exam', history: {} },
      { as_of: 20260115, rules: [null], history: [[]] },
      {
        as_of: '2026-01-15',
        rules: [{ benefit_code: EXAM, frequency: { count: '1', period: null } }],
        history: [],
      },
      {
        as_of: '2026-01-15',
        rules: [
          rolling(12, {
            frequency: { count: 1.5, period: { kind: 'rolling', months: 0 }, shared_with: [1] },
          }),
        ],
        history: [{ benefit_code: EXAM, date: '2025-01-01', source: 'fax' }],
        plan: [],
      },
    ];
    const answers = await Promise.all(bodies.map((b) => post(b)));
    expect(answers.map((r) => r.status)).toEqual(bodies.map(() => 400));
    expect(answers[0].body.errors).toEqual({
      as_of: { $: ['This field is required.'] },
      rules: { $: ['This field is required.'] },
      history: { $: ['This field is required.'] },
    });
    expect(answers[1].body.errors).toEqual({
      rules: { $: ['Ensure this field has at least 1 elements.'] },
    });
    expect(answers[2].body.errors).toEqual({
      rules: { $: ['Expected a list of items.'] },
      history: { $: ['Expected a list of items.'] },
    });
    expect(answers[5].body.errors).toEqual({
      rules: {
        '0': {
          frequency: {
            count: { $: ['A valid integer is required.'] },
            period: { months: { $: ['Ensure this value is greater than or equal to 1.'] } },
            shared_with: { '0': { $: ['Not a valid string.'] } },
          },
        },
      },
      history: {
        '0': {
          source: { $: ['"fax" is not a valid choice.', MSG.allowedChoices(SERVICE_SOURCES)] },
        },
      },
      plan: { $: ['Invalid data. Expected a dictionary.'] },
    });
  });

  it('takes 100 rules and 1,000 history entries, and refuses one more of either by size alone', async () => {
    const codes = Array.from({ length: 100 }, (_, i) => `benefit.b${String(i).padStart(3, '0')}`);
    const rules = codes.map((code, i) => ({
      benefit_code: code,
      frequency: {
        count: 2,
        period: { kind: 'rolling', months: 12 },
        shared_with: codes.filter((c) => c !== code).slice(i % 50, (i % 50) + 10),
      },
      payer_next_eligible_date: null,
    }));
    const history = Array.from({ length: 1_000 }, (_, i) => ({
      benefit_code: codes[i % 100],
      date: `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      source: 'claim',
    }));
    const ok = await post({
      as_of: '2026-01-15',
      rules,
      history,
      plan: { begin_date: null, end_date: null },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.result).toHaveLength(100);
    for (const r of ok.body.result) expect(r.next_eligible.basis).toBe('computed');

    const tooMany = await post({
      as_of: '2026-01-15',
      rules: [...rules, rolling(12)],
      history: [...history, history[0]],
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual({
      rules: { $: ['Ensure this field has no more than 100 elements.'] },
      history: { $: ['Ensure this field has no more than 1000 elements.'] },
    });
  });
});
