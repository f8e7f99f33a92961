import request from 'supertest';
import { createTestApp, TestApp } from './support/app';

/** docs/api.md, Health: ready once PostgreSQL and Redis both answer. */
describe('the health probes with Redis', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());

  it('answers ready when PostgreSQL and Redis answer, without authentication', async () => {
    expect((await http().get('/health/live')).body).toEqual({ status: 'ok' });
    for (const path of ['/health/ready', '/health/ready/']) {
      const ready = await http().get(path);
      expect([path, ready.status]).toEqual([path, 200]);
      expect(ready.body.info).toMatchObject({
        database: { status: 'up' },
        redis: { status: 'up' },
      });
    }
  });

  it('answers If-None-Match with 304 while the report is unchanged', async () => {
    const first = await http().get('/health/ready/').expect(200);
    expect(first.headers.etag).toMatch(/^W\/".+"$/);
    const again = await http().get('/health/ready/').set('If-None-Match', first.headers.etag);
    expect([again.status, again.text ?? '']).toEqual([304, '']);
  });
});
