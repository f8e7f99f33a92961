import { request as httpRequest } from 'node:http';
import {
  type BuiltService,
  memoryOf,
  resetPeak,
  startBuiltService,
  STARTUP_MS,
} from './support/built-service';
import { csrfOf } from './support/web-sign-in';
import { big835, ISA } from './x12/big-reports';

const MB = 1_000_000;
/**
 * Under a pod's 384 MiB (deploy/) with room to spare. Measured: the built service idles near
 * 160 MB and peaks near 290 MB reading the 4.7 MB 835 below; before the limits, 10 MB of
 * segments took the heap and the process died.
 */
const RSS_BOUND = 340 * 1024 * 1024;

let service: BuiltService;
let base = '';
let auth: Record<string, string> = {};

beforeAll(async () => {
  service = await startBuiltService();
  base = service.base;
  auth = { Authorization: `Api ${/API key:\s+(vk_\S+)/.exec(service.output())![1]}` };
}, STARTUP_MS + 60_000);

afterAll(() => service?.stop());

/**
 * Issue 40, "one upload takes the process down": the built service is sent hostile and huge
 * claim reports. Each gets a 4xx or is read within the limits, the process keeps answering, its
 * peak memory stays bounded, and its logs carry no report text.
 */
describe('claim report uploads against the built service (issue 40)', () => {
  async function upload(body: string, type: 'text/plain' | 'application/json') {
    // Peak memory from here on: start-up (migrations, seeding) has a peak of its own.
    resetPeak(service.child.pid!);
    const res = await fetch(`${base}/api/auth/v1/claim-reports/`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': type },
      body,
    }).catch((e: unknown) => ({ status: 0, text: async () => String(e) }));
    return { status: res.status, body: await res.text() };
  }

  async function stillServing(): Promise<void> {
    const live = await fetch(`${base}/health/live`).catch(() => null);
    expect(service.child.exitCode).toBeNull();
    expect(live?.status).toBe(200);
    expect(memoryOf(service.child.pid!, 'VmHWM')).toBeLessThan(RSS_BOUND);
  }

  // A header, then segment after segment of nothing: every segment was an object before any check.
  const flood = (bytes: number) => ISA + 'AB~'.repeat(Math.ceil((bytes - ISA.length) / 3));

  it.each([
    ['text/plain', (s: string) => s],
    ['application/json', (s: string) => JSON.stringify({ x12: s })],
  ] as const)(
    'answers 10 MB of segments sent as %s with 413 and keeps serving',
    async (type, wrap) => {
      const res = await upload(wrap(flood(10 * MB)), type);
      expect(res).toEqual({
        status: 413,
        body: JSON.stringify({ detail: 'Request body too large.' }),
      });
      await stillServing();
    },
    60_000,
  );

  it('refuses a body under the size limit with too many segments, before reading them', async () => {
    const res = await upload(flood(5 * MB - 1000), 'text/plain');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      errors: {
        x12: {
          $: [
            'X12: the interchange has more than 100,000 segments, the most one interchange may have; split it',
          ],
        },
      },
    });
    await stillServing();
  }, 60_000);

  it('refuses one segment of a million and a half elements within the memory bound', async () => {
    const res = await upload(`${ISA}GS${'*ab'.repeat(1_500_000)}~`, 'text/plain');
    expect(res.status).toBe(400);
    await stillServing();
  }, 60_000);

  it('reads an 835 just under both limits within the memory bound', async () => {
    const text = big835(99_990, 'UPLOADMEMORY1');
    expect(text.length).toBeGreaterThan(4.5 * MB);
    const res = await upload(text, 'text/plain');
    expect(res.status).toBe(202);
    expect(JSON.parse(res.body)).toMatchObject({
      type: '835',
      claims_unmatched: expect.any(Number),
    });
    await stillServing();
  }, 120_000);

  it('never writes report text to the logs', () => {
    // The 835s name patients (NM1*QC); the flood is report text too.
    expect(service.output()).not.toContain('PATIENTLAST');
    expect(service.output()).not.toContain('AB~AB');
  });
});

/** What a refused CSV may cost the process: its resident memory grows by less than this. */
const CSV_RSS_GROWTH = 64 * 1024 * 1024;
const BOUNDARY = 'csvintakeboundary';

/**
 * docs/api.md, Batches and Appointments (the Schedule page): a staff user's CSV file is read as
 * it streams in and refused at the first limit it crosses, under the file-size limit: 4,000,000
 * short lines, one row of 8 MB of commas, one cell of 8 MB. Each gets the page's 400 with its
 * line, before the rest of the file is sent, and the process's memory hardly moves.
 */
describe('CSV uploads of the web pages against the built service', () => {
  let cookie = '';
  let location = '';

  /** Signs in as the demo account's user; answers the page's form token. */
  async function formToken(path: string): Promise<string> {
    const page = await fetch(`${base}${path}`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    return csrfOf(await page.text());
  }

  beforeAll(async () => {
    const [, email, password] = /Web login:\s+(\S+) \/ (\S+)/.exec(service.output())!;
    location = /Location:\s+(\S+)/.exec(service.output())![1];
    const login = await fetch(`${base}/app/login`);
    cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const csrf = csrfOf(await login.text());
    const signedIn = await fetch(`${base}/app/login`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, email, password }),
      redirect: 'manual',
    });
    // Signed in, to the app (not back to the login page or to two-factor).
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get('location')).not.toMatch(/login|two-factor/);
    cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  });

  /**
   * Posts the form with `csv` as its file, and never sends the end of the form: only a page that
   * refuses the file before the rest answers at all. Answers the status, the page's errors, and
   * the process's resident memory before and at its peak while the file was read.
   */
  async function unfinishedUpload(path: string, fields: Record<string, string>, csv: string) {
    const body = [
      ...Object.entries({ _csrf: await formToken(path.replace(/sync$/, '')), ...fields }).map(
        ([name, value]) =>
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="f.csv"\r\n`,
      'Content-Type: text/csv\r\n\r\n',
    ].join('');
    resetPeak(service.child.pid!);
    const before = memoryOf(service.child.pid!, 'VmRSS');
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(`${base}${path}`, {
        method: 'POST',
        headers: { Cookie: cookie, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      });
      const timer = setTimeout(() => {
        req.destroy();
        reject(new Error('no answer: the page waited for the rest of the file'));
      }, 30_000);
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          clearTimeout(timer);
          req.destroy();
          resolve({ status: res.statusCode!, text });
        });
      });
      req.on('error', reject);
      req.write(body);
      req.write(csv);
    });
    return { ...answer, before, peak: memoryOf(service.child.pid!, 'VmHWM') };
  }

  type Page = (typeof pages)[number];
  const pages = [
    {
      page: 'the batch page',
      path: '/app/batches/',
      fields: () => ({}),
      header: 'first_name,last_name,dob,zipcode,member_id,insurer_code',
      rows: '10,000 patients',
      overLine: '10,002',
      quoted: { cell: 1_020, lines: 5_100 },
      errorsOf: (html: string) => [...html.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]),
    },
    {
      page: "the Schedule's CSV sync",
      path: '/app/schedule/sync',
      fields: () => ({ date: '2026-11-24', location }),
      header: 'external_id,starts_at,status,insurer_code',
      rows: '5,000 appointments',
      overLine: '5,002',
      quoted: { cell: 2_000, lines: 2_600 },
      errorsOf: (html: string) =>
        [
          ...(/id="schedule-refused">(.*?)<\/div>/s.exec(html)?.[1] ?? '').matchAll(
            /<p>([^<]*)<\/p>/g,
          ),
        ].map((m) => m[1]),
    },
  ];
  const files = [
    {
      file: '4,000,000 short lines (8 MB)',
      csv: ({ header }: Page) => `${header}\n${'a\n'.repeat(4_000_000)}`,
      refusal: ({ overLine, rows }: Page) =>
        `Line ${overLine}: At most ${rows} per file; this one has more.`,
    },
    {
      file: 'one row of 8,388,000 commas',
      csv: ({ header }: Page) => `${header}\n${','.repeat(8_388_000)}`,
      refusal: ({ header }: Page) =>
        `Line 2: the line has more cells than the header&#39;s ${header.split(',').length} columns.`,
    },
    {
      file: 'one cell of 8 MB',
      csv: ({ header }: Page) => `${header}\n"${'x'.repeat(8 * MB)}"`,
      refusal: () => 'Line 2: the line is longer than',
    },
    {
      // Each line within the line size (a doubled quote is one byte of its cell), and within
      // the line cap, the whole past the largest valid file.
      file: 'lines of doubled quotes past the largest valid file',
      csv: ({ header, quoted }: Page) =>
        `${header}\n${`"${'""'.repeat(quoted.cell)}"\n`.repeat(quoted.lines)}`,
      refusal: () => 'The file is larger than 9.8 MiB.',
    },
  ];

  it.each(pages.flatMap((p) => files.map((f) => ({ page: p, ...f }))))(
    '$page.page refuses $file before the rest is sent, within 64 MiB',
    async ({ page, csv, refusal }) => {
      const file = csv(page);
      expect(file.length).toBeGreaterThan(8 * MB);
      const { path, fields, errorsOf } = page;
      const res = await unfinishedUpload(path, fields(), file);
      expect(res.status).toBe(400);
      const errors = errorsOf(res.text);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain(refusal(page));
      expect(res.peak - res.before).toBeLessThan(CSV_RSS_GROWTH);
      const live = await fetch(`${base}/health/live`);
      expect(live.status).toBe(200);
    },
    60_000,
  );
});
