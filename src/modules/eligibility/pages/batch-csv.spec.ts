import { parse } from 'csv-parse/sync';
import { CsvRefused } from '@/platform/http/csv-intake';
import { formatMoney, MONEY } from '@/platform/kernel/money';
import type { BatchItemExport } from '@/modules/eligibility/batches/domain/batch-query.service';
import { buildPlan, PLAN_VARIANTS } from '@/modules/insurers/domain/demo/demo-plan';
import { MAX_BATCH_ITEMS } from '../api/dto/create-batch.dto';
import {
  BATCH_CSV,
  lineErrors,
  neutralise,
  readUpload,
  resultsHeader,
  resultsRows,
  templateCsv,
} from './batch-csv';

/** The CSV's amount cells: dollars and cents without a sign ("45.0000" → "45.00"). */
const COLUMNS_HEADER = 'first_name,last_name,dob,zipcode,member_id,insurer_code';
const bare = (value: string) => formatMoney(value, MONEY.bare);

describe('batch CSV', () => {
  it('reads the template back as one item', async () => {
    const { body, lines } = await readUpload(templateCsv());
    expect(body.items).toEqual([
      {
        insurer_code: 'insurer:demo:vision',
        patient: {
          first_name: 'Maria',
          last_name: 'Garcia',
          dob: '1984-06-15',
          zipcode: '78701',
          member_id: 'VSP123456789',
        },
      },
    ]);
    expect(lines).toEqual([2]);
  });

  it('accepts headers as people write them, a BOM, blank lines and quoted cells', async () => {
    const csv =
      '\uFEFFFirst Name,Last Name,Date of birth,Zip code,Member ID,Insurer\r\n\r\n' +
      '"Ann, Jr",Lee,1990-01-01,78701,,insurer:demo:vision\r\n';
    const { body, lines } = await readUpload(csv);
    expect(body.items[0]).toEqual({
      insurer_code: 'insurer:demo:vision',
      patient: {
        first_name: 'Ann, Jr',
        last_name: 'Lee',
        dob: '1990-01-01',
        zipcode: '78701',
        member_id: undefined,
      },
    });
    expect(lines).toEqual([3]);
  });

  it.each([
    ['', 'Choose a CSV file to upload.'],
    ['\r\n', 'The file is empty.'],
    ['first_name,last_name\nA,B', 'Line 1: the header lacks dob, zipcode, insurer_code'],
    ['first_name,last_name,dob,zipcode,insurer_code\n', 'The file has a header but no patients.'],
    ['a,"b\n', 'Not a readable CSV file'],
  ])('refuses %j', async (csv, message) => {
    const read = readUpload(csv);
    await expect(read).rejects.toThrow(CsvRefused);
    await expect(read).rejects.toThrow(message);
  });

  it('reads the largest valid file: 10,000 patients at their longest, under its byte limit', async () => {
    // Names of 100 characters outside ASCII (two bytes each), a ZIP+4, ids of 64.
    const row = [
      'é'.repeat(100),
      'ü'.repeat(100),
      '1984-06-15',
      '78701-1234',
      'M'.repeat(64),
      'i'.repeat(64),
    ];
    const csv = [
      COLUMNS_HEADER,
      ...Array.from({ length: MAX_BATCH_ITEMS }, () => row.join(',')),
    ].join('\r\n');
    expect(Buffer.byteLength(csv)).toBeLessThan(BATCH_CSV.maxBytes);
    const { body, lines } = await readUpload(csv);
    expect(body.items).toHaveLength(MAX_BATCH_ITEMS);
    expect(lines[MAX_BATCH_ITEMS - 1]).toBe(MAX_BATCH_ITEMS + 1);
    await expect(readUpload(`${csv}\r\n${row.join(',')}`)).rejects.toThrow(
      'Line 10,002: At most 10,000 patients per file; this one has more.',
    );
  });

  it("names the file line of each item's errors", () => {
    const errors = {
      items: {
        '0': { patient: { dob: { $: ['Date has wrong format. Use YYYY-MM-DD.'] } } },
        '2': { $: ['Unknown insurer code: x.'] },
      },
    };
    expect(lineErrors(errors, [2, 4, 7])).toEqual([
      'Line 2: dob: Date has wrong format. Use YYYY-MM-DD.',
      'Line 7: Unknown insurer code: x.',
    ]);
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['Maria', 'Maria'],
    [null, ''],
  ])('neutralises %j for spreadsheets', (cell, out) => {
    expect(neutralise(cell)).toBe(out);
  });

  describe('results', () => {
    const query = {
      firstName: 'Maria',
      lastName: 'Garcia',
      dob: '1984-06-15',
      zipcode: '78701',
      ssnLastFour: null,
      memberId: 'M1',
    };
    const variant = PLAN_VARIANTS[0];
    const tree = buildPlan(
      variant,
      { begin: '2026-01-01', end: '2026-12-31', refresh: '2026-01-01' },
      { detail: 'summary', markUsed: false, examUsed: false, noOon: false, noInn: false },
    );
    const item = (over: Partial<BatchItemExport>): BatchItemExport => ({
      requestUid: 'r1',
      status: 'complete',
      errorCode: null,
      query,
      insurerCodes: ['insurer:vision:vsp'],
      reason: null,
      bodyV2: null,
      ...over,
    });
    const read = (items: BatchItemExport[]): Record<string, string>[] =>
      parse(resultsHeader() + resultsRows(items), { columns: true });

    it('keeps the documented columns in place and adds coverage, insurer name and reason after them', () => {
      expect(resultsHeader().trim().split(',')).toEqual([
        'first_name',
        'last_name',
        'dob',
        'member_id',
        'status',
        'error_code',
        'insurer_code',
        'plan_name',
        'plan_status',
        'active',
        'exam_copay',
        'materials_copay',
        'frame_allowance',
        'contact_lens_allowance',
        'request_uid',
        'coverage',
        'insurer_name',
        'error_reason',
      ]);
    });

    it('flattens the common benefits from deep in the tree, as dollars', () => {
      const body = {
        results: [
          {
            insurer_code: 'insurer:vision:vsp',
            plan_name: variant.name,
            status: 'active',
            plan_is_active: true,
            persons: [{ plan: tree }],
          },
        ],
      };
      const [row] = read([item({ bodyV2: JSON.stringify(body) })]);
      expect(row).toMatchObject({
        status: 'complete',
        coverage: 'plan found',
        insurer_code: 'insurer:vision:vsp',
        insurer_name: 'VSP Vision Care',
        plan_name: variant.name,
        active: 'true',
        // exam (inherited by exam.routine); lenses per type; frames; elective contact lenses.
        exam_copay: bare(variant.examCopay),
        materials_copay: bare(variant.lensCopay),
        frame_allowance: bare(variant.framesInn),
        contact_lens_allowance: bare(variant.contactsInn),
        error_reason: '',
      });
      expect(row.exam_copay).toMatch(/^\d+\.\d\d$/);
    });

    it('says "no plan found" for a complete check without plans, and keeps the insurer asked', () => {
      const [row] = read([item({ bodyV2: JSON.stringify({ results: [] }) })]);
      expect(row).toMatchObject({
        status: 'complete',
        coverage: 'no plan found',
        insurer_code: 'insurer:vision:vsp',
        insurer_name: 'VSP Vision Care',
        plan_name: '',
        exam_copay: '',
      });
    });

    it("keeps a failed row's insurer code and says why it failed", () => {
      const [said, unsaid] = read([
        item({ status: 'error', errorCode: 'insurer_problem', reason: 'Sandbox: outage' }),
        item({ status: 'error', errorCode: 'insurer_problem', reason: null }),
      ]);
      expect(said).toMatchObject({
        status: 'error',
        error_code: 'insurer_problem',
        insurer_code: 'insurer:vision:vsp',
        coverage: '',
        error_reason: 'Sandbox: outage',
      });
      expect(unsaid.error_reason).toBe(
        'The insurer could not be asked or did not answer; try again later.',
      );
    });

    it.each([
      ['45.0000', '45.00'],
      ['0.0000', '0.00'],
      ['12.5', '12.50'],
      ['7', '7.00'],
    ])('prints %j as dollars %j', (value, out) => {
      expect(bare(value)).toBe(out);
    });
  });
});
