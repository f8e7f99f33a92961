import request from 'supertest';
import { ClaimReportPoller } from '@/modules/claims/reports/jobs/claim-report-poller';
import { createTestApp, TestApp } from './support/app';
import { createAccount } from './support/factories';
import { FakeClaimsClearinghouse } from './support/fake-claims-clearinghouse';
import { report } from './x12/report-files';

const API_KEY = 'claim-report-logs-key';
const PATIENT = 'NM1*QC*1*DOE*JANE****MI*VSP123456';

/**
 * Issue 40 (low): a report's text holds patients' names and ids, and parse errors quote it.
 * The sender of an upload is told where its file breaks, quote included; the logs keep where and
 * what, never the text, whether the report came by upload or by the poller.
 */
describe('claim report text never reaches the logs (issue 40)', () => {
  let fake: FakeClaimsClearinghouse;
  let t: TestApp;
  const writes: string[] = [];

  beforeAll(async () => {
    fake = await FakeClaimsClearinghouse.start(API_KEY);
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      writes.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
      return true;
    });
    t = await createTestApp({
      env: {
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        CLEARINGHOUSE_API_KEY: API_KEY,
        X12_SUBMITTER_ID: 'VISIONELIG',
        X12_RECEIVER_ID: 'CLEARINGHOUSE',
        CLEARINGHOUSE_REPORTS_URL: fake.reportsUrl,
        CLAIM_REPORTS_INTERVAL_MS: '86400000',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    jest.restoreAllMocks();
  });

  // An 835 cut off inside the patient's NM1: the parse error quotes the start of that segment.
  const cut = () => {
    const text = report('835-several-claims.x12');
    return text.slice(0, text.indexOf('NM1*QC*1*DOE*JANE') + PATIENT.length);
  };

  it('tells the uploader where the file breaks, and logs no part of it', async () => {
    const a = await createAccount(t.app);
    const res = await request(t.app.getHttpServer())
      .post('/api/auth/v1/claim-reports/')
      .set(a.auth)
      .send({ x12: cut() });
    expect(res.status).toBe(400);
    expect(res.body.errors.x12.$[0]).toContain('NM1*QC*1*DOE*JANE');
    expect(writes.join('')).not.toContain('DOE*JANE');
  });

  it('logs a polled report it cannot read by its id and the place it breaks, without its text', async () => {
    fake.addReport('r-cut', '835', cut());
    await t.app.get(ClaimReportPoller).tick();
    const lines = writes
      .join('')
      .split('\n')
      .filter((l) => l.includes('claim report not readable'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      report: 'r-cut',
      err: expect.stringMatching(
        /^X12: truncated interchange: the text ends inside segment \d+ "…"/,
      ),
    });
    expect(writes.join('')).not.toContain('DOE*JANE');
    expect(fake.reports.map((r) => r.id)).toEqual(['r-cut']);
  });
});
