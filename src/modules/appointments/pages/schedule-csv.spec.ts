import { CsvRefused } from '@/platform/http/csv-intake';
import { MAX_SYNC_ITEMS } from '../domain/appointment-words';
import {
  lineErrors,
  readScheduleCsv,
  SCHEDULE_COLUMNS,
  SCHEDULE_CSV,
  scheduleTemplateCsv,
  treeMessages,
} from './schedule-csv';

const WINDOW = {
  from: '2026-11-24T00:00:00Z',
  to: '2026-11-25T00:00:00Z',
  location_code: 'LOCDOWNTOWN',
};
const HEADER = SCHEDULE_COLUMNS.join(',');

describe('the Schedule CSV', () => {
  it('reads the template back as one sync item of the window', async () => {
    const { body, lines } = await readScheduleCsv(scheduleTemplateCsv(), WINDOW);
    expect(body).toEqual({
      ...WINDOW,
      appointments: [
        {
          external_id: 'EPIC-APPT-20261124-0042',
          starts_at: '2026-11-24T15:00:00-06:00',
          ends_at: '2026-11-24T15:30:00-06:00',
          status: 'booked',
          location_code: 'LOCDOWNTOWN',
          patient: {
            first_name: 'Maria',
            last_name: 'Garcia',
            dob: '1984-06-15',
            zipcode: '78701',
            member_id: 'VSP123456789',
          },
          insurer_code_list: ['insurer:vision:vsp', 'insurer:vision:eye_med'],
        },
      ],
    });
    expect(lines).toEqual([2]);
  });

  it('reads a BOM, headers as people write them, quoted cells, blank lines and a patient code', async () => {
    const csv =
      '\uFEFFAppointment ID,Start,Status,Patient,Insurer,Location\r\n\r\n' +
      '"A-1, ""late""",2026-11-24T09:00:00Z,Booked,PAT4Q7ZK2MX, insurer:vision:vsp ,LOCUPTOWN\r\n' +
      'A-2,2026-11-24T10:00:00Z,arrived,PAT4Q7ZK2MX,"insurer:vision:vsp;insurer:demo:vision;",\r\n';
    const { body, lines } = await readScheduleCsv(csv, WINDOW);
    expect(body.appointments).toEqual([
      {
        external_id: 'A-1, "late"',
        starts_at: '2026-11-24T09:00:00Z',
        ends_at: undefined,
        status: 'booked',
        location_code: 'LOCUPTOWN',
        patient_code: 'PAT4Q7ZK2MX',
        insurer_code: 'insurer:vision:vsp',
      },
      {
        external_id: 'A-2',
        starts_at: '2026-11-24T10:00:00Z',
        ends_at: undefined,
        status: 'arrived',
        // A blank location is the page's.
        location_code: 'LOCDOWNTOWN',
        patient_code: 'PAT4Q7ZK2MX',
        insurer_code_list: ['insurer:vision:vsp', 'insurer:demo:vision'],
      },
    ]);
    expect(lines).toEqual([3, 4]);
  });

  it('passes a bad line on as it is, for the sync to refuse it alone', async () => {
    const csv = `${HEADER}\nA-1,tomorrow,,,,,Ann,,,,,\n`;
    const [item] = (await readScheduleCsv(csv, WINDOW)).body.appointments;
    expect(item).toEqual({
      external_id: 'A-1',
      starts_at: 'tomorrow',
      ends_at: undefined,
      status: undefined,
      location_code: 'LOCDOWNTOWN',
      patient: { first_name: 'Ann' },
    });
  });

  it.each([
    ['', 'Choose a CSV file to upload.'],
    ['\n', 'The file is empty.'],
    ['external_id,status\nA-1,booked', 'Line 1: the header lacks starts_at, insurer_code'],
    [`${HEADER},External ID\n`, 'Line 1: the column external_id is given twice.'],
    [`${HEADER}\n`, 'The file has a header but no appointments.'],
    ['a,"b\n', 'Not a readable CSV file'],
    ['a,"b"c\n', 'Not a readable CSV file'],
  ])('refuses %j: %s', async (csv, message) => {
    const read = readScheduleCsv(csv, WINDOW);
    await expect(read).rejects.toThrow(CsvRefused);
    await expect(read).rejects.toThrow(message);
  });

  it(`takes ${MAX_SYNC_ITEMS} lines and refuses one more, reading no further than that`, async () => {
    const line = (i: number) =>
      `A-${i},2026-11-24T09:00:00Z,booked,,,PAT1,,,,,,insurer:demo:vision`;
    const rows = (n: number) => Array.from({ length: n }, (_, i) => line(i));
    const full = await readScheduleCsv([HEADER, ...rows(MAX_SYNC_ITEMS)].join('\n'), WINDOW);
    expect(full.body.appointments).toHaveLength(MAX_SYNC_ITEMS);
    expect(full.lines[MAX_SYNC_ITEMS - 1]).toBe(MAX_SYNC_ITEMS + 1);
    await expect(
      readScheduleCsv([HEADER, ...rows(MAX_SYNC_ITEMS + 1)].join('\n'), WINDOW),
    ).rejects.toThrow('Line 5,002: At most 5,000 appointments per file; this one has more.');
    // Ten times too many lines, and a broken quote past the limit: refused for the count, the
    // broken line never read.
    const huge = [HEADER, ...rows(MAX_SYNC_ITEMS * 10), '"broken'].join('\n');
    await expect(readScheduleCsv(huge, WINDOW)).rejects.toThrow(
      'Line 5,002: At most 5,000 appointments per file; this one has more.',
    );
  });

  it('reads the largest valid file: 5,000 appointments at their longest, under its byte limit', async () => {
    const row = [
      'E'.repeat(64),
      '2026-11-24T15:00:00.123456789-06:00',
      '2026-11-24T15:30:00.123456789-06:00',
      'noshow',
      'L'.repeat(16),
      '',
      // Names of 100 characters outside ASCII (two bytes each), a ZIP+4, ten insurers of 64.
      'é'.repeat(100),
      'ü'.repeat(100),
      '1984-06-15',
      '78701-1234',
      'M'.repeat(64),
      Array.from({ length: 10 }, (_, i) => `${i}`.repeat(64)).join(';'),
    ].join(',');
    const csv = [HEADER, ...Array.from({ length: MAX_SYNC_ITEMS }, () => row)].join('\r\n');
    expect(Buffer.byteLength(csv)).toBeLessThan(SCHEDULE_CSV.maxBytes);
    const { body } = await readScheduleCsv(csv, WINDOW);
    expect(body.appointments).toHaveLength(MAX_SYNC_ITEMS);
  });

  it("places each item's errors on its file line, named by its column", () => {
    const errors = [
      {
        index: 0,
        errors: {
          starts_at: { $: ['Enter a date and time with its offset (RFC 3339).'] },
          patient: { dob: { $: ['Date has wrong format. Use YYYY-MM-DD.'] } },
        },
      },
      { index: 2, errors: { $: ['Unknown insurer code: insurer:x:y.'] } },
      { index: 3, errors: { insurer_code_list: { '1': { $: ['Not a known code.'] } } } },
      { index: 4, errors: { patient: { $: ['This field is required.'] } } },
    ];
    expect(lineErrors(errors, [2, 4, 7, 8, 9])).toEqual([
      'Line 2: starts_at: Enter a date and time with its offset (RFC 3339).',
      'Line 2: dob: Date has wrong format. Use YYYY-MM-DD.',
      'Line 7: Unknown insurer code: insurer:x:y.',
      'Line 8: insurer_code: Not a known code.',
      'Line 9: patient (patient_code, or first_name, last_name, dob and zipcode): This field is required.',
    ]);
  });

  it("names a refused sync's fields", () => {
    expect(treeMessages({ location_code: { $: ['Location LOCX does not exist.'] } })).toEqual([
      'location_code: Location LOCX does not exist.',
    ]);
  });
});
