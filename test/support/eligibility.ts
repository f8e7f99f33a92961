import type { INestApplication } from '@nestjs/common';
import request from 'supertest';

export const DEMO = 'insurer:demo:vision';

export function patient(overrides: Record<string, unknown> = {}) {
  return {
    first_name: 'Maria',
    last_name: 'Garcia',
    dob: '1984-06-15',
    zipcode: '78701',
    ...overrides,
  };
}

/** POSTs a sandbox search and returns its uid (expects 201). */
export async function startSearch(
  app: INestApplication,
  auth: { Authorization: string },
  body: Record<string, unknown>,
): Promise<string> {
  const res = await request(app.getHttpServer())
    .post('/api/auth/v1/eligibility/')
    .set(auth)
    .send({ insurer_code: DEMO, ...body });
  if (res.status !== 201)
    throw new Error(`search refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.request_uid as string;
}

/** Polls the result until it leaves `processing` (bounded). */
export async function waitForResult(
  app: INestApplication,
  auth: { Authorization: string },
  uid: string,
  version: 'v1' | 'v2' = 'v2',
  timeoutMs = 30_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(app.getHttpServer())
      .get(`/api/auth/${version}/eligibility/${uid}/`)
      .set(auth);
    if (res.status !== 200) throw new Error(`GET ${uid}: ${res.status} ${res.text}`);
    if (res.body.status !== 'processing') return res.body;
    if (Date.now() > deadline) throw new Error(`${uid} still processing after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
