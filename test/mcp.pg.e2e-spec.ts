import request from 'supertest';
import { DataSource } from 'typeorm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ApiScope } from '@/platform/http/scopes';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';

const ALL_TOOLS = [
  'check_eligibility',
  'explain_benefits',
  'get_eligibility',
  'list_insurers',
  'quote_materials',
  'schedule_at_risk',
];

type ToolResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: any;
};

/**
 * docs/api.md, MCP: the SDK's own client over streamable HTTP against the app on a loopback
 * port: the tools a key may use, each tool on the sandbox, refusals, tenants and the audit trail.
 */
describe('the MCP door (docs/api.md, MCP)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let base: string;
  let client: Client;
  const clients: Client[] = [];

  const connect = async (key: string, scheme: 'Api' | 'Bearer' = 'Bearer') => {
    const c = new Client({ name: 'mcp-e2e', version: '1.0.0' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `${scheme} ${key}` } },
      }),
    );
    clients.push(c);
    return c;
  };
  const keyWith = async (account: TestAccount, scopes: ApiScope[]) =>
    (await t.app.get(ApiKeysService).create(account.accountId, 'mcp key', scopes)).key;
  const call = async (c: Client, name: string, args: Record<string, unknown> = {}) =>
    (await c.callTool({ name, arguments: args })) as ToolResult;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    const { port } = t.app.getHttpServer().address() as { port: number };
    base = `http://127.0.0.1:${port}`;
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    client = await connect(a.apiKey);
  });

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await t?.close();
  });

  let uid: string;
  let adultId: number;

  it('lists every tool to a key with every scope, with JSON schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(ALL_TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.description).toBeTruthy();
    }
    const check = tools.find((x) => x.name === 'check_eligibility')!;
    expect((check.inputSchema as any).required).toEqual(['patient']);
    expect(client.getServerVersion()?.name).toBe('vision-eligibility');
  });

  it('list_insurers names the sandbox insurer, to any key', async () => {
    const narrow = await connect(await keyWith(a, ['patients:read']));
    expect((await narrow.listTools()).tools.map((x) => x.name)).toEqual(['list_insurers']);
    const res = await call(narrow, 'list_insurers');
    expect(res.isError).toBeFalsy();
    const demo = res.structuredContent.result.find((i: any) => i.insurer_code === DEMO);
    expect(demo).toMatchObject({ insurer_code: DEMO, eligibility: 'sandbox' });
    expect(Object.keys(demo).sort()).toEqual(['aliases', 'eligibility', 'insurer_code', 'name']);
  });

  it('check_eligibility runs a sandbox check to complete and answers the compact V2 result', async () => {
    const res = await call(client, 'check_eligibility', {
      insurer_code: DEMO,
      patient: patient({ last_name: 'Garcia big_family', member_id: 'VSP123456789' }),
    });
    expect(res.isError).toBeFalsy();
    const body = res.structuredContent;
    expect(JSON.parse(res.content[0].text)).toEqual(body);
    expect(body.status).toBe('complete');
    expect(body.request_uid).toEqual(expect.any(String));
    uid = body.request_uid;
    const persons = body.results[0].persons;
    const adult = persons.find((p: any) => p.type === 'self');
    adultId = adult.id;
    expect(adult.plan.benefits.length).toBeGreaterThan(0);
    expect(adult.plan.benefits[0]).toHaveProperty('benefit_code');
    // The same request, as the JSON route answers it.
    const json = await request(t.app.getHttpServer())
      .get(`/api/auth/v2/eligibility/${uid}/`)
      .set(a.auth)
      .expect(200);
    expect(json.body.status).toBe('complete');
    expect(json.body.results[0].persons.map((p: any) => p.id)).toEqual(
      persons.map((p: any) => p.id),
    );
  });

  it('check_eligibility past its wait answers the request uid and the state so far', async () => {
    const started = Date.now();
    const res = await call(client, 'check_eligibility', {
      insurer_code: DEMO,
      patient: patient({ last_name: 'Garcia delay_10' }),
      wait_seconds: 1,
    });
    const waited = Date.now() - started;
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toMatchObject({ status: 'processing', results: null });
    expect(res.structuredContent.request_uid).toEqual(expect.any(String));
    expect(waited).toBeGreaterThanOrEqual(1000);
    expect(waited).toBeLessThan(8000);
  });

  it('get_eligibility answers the same result by request uid', async () => {
    const res = await call(client, 'get_eligibility', { request_uid: uid });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent.request_uid).toBe(uid);
    expect(res.structuredContent.status).toBe('complete');
  });

  it('quote_materials prices an order on the check’s answer, as the quotes route does', async () => {
    const order = {
      frame: { retail: '189.00' },
      lenses: { type: 'single_vision', retail: '120.00' },
    };
    const res = await call(client, 'quote_materials', {
      request_uid: uid,
      person_id: adultId,
      order,
    });
    expect(res.isError).toBeFalsy();
    const quote = res.structuredContent;
    expect(quote.id).toEqual(expect.any(String));
    expect(quote.lines.map((l: any) => l.item)).toEqual(['frame', 'lenses']);
    const json = await request(t.app.getHttpServer())
      .post('/api/auth/v1/quotes/')
      .set(a.auth)
      .send({ request_uid: uid, person_id: adultId, order })
      .expect(201);
    expect({ ...json.body, id: quote.id }).toEqual(quote);
  });

  it('explain_benefits says what each person can have, and when, in sentences', async () => {
    const res = await call(client, 'explain_benefits', { request_uid: uid });
    expect(res.isError).toBeFalsy();
    const persons = res.structuredContent.persons;
    expect(persons.length).toBeGreaterThan(0);
    const adult = persons.find((p: any) => p.person_id === adultId);
    expect(adult.sentences.length).toBeGreaterThan(0);
    for (const s of adult.sentences) expect(s).toMatch(/\.$/);
    expect(adult.sentences.join(' ')).toMatch(/available|unknown/);
    // One sentence per benefit with a rule of its own, not one per item under it.
    expect(adult.sentences.some((s: string) => s.startsWith('Frames: '))).toBe(true);
    expect(adult.sentences.length).toBeLessThan(10);
    // An exam used on the plan's begin date is not available again for 12 months.
    const used = await call(client, 'check_eligibility', {
      insurer_code: DEMO,
      patient: patient({ last_name: 'Garcia dt_exam_used' }),
    });
    const told = await call(client, 'explain_benefits', {
      request_uid: used.structuredContent.request_uid,
    });
    const exam = told.structuredContent.persons[0].sentences.find((s: string) =>
      s.startsWith('An eye exam: '),
    );
    expect(exam).toMatch(/^An eye exam: not available before \d{4}-\d{2}-\d{2}\./);
  });

  it('schedule_at_risk lists the day’s appointments whose coverage is not active, with why', async () => {
    await request(t.app.getHttpServer())
      .put('/api/auth/v1/appointments/mcp-visit-1/')
      .set(a.auth)
      .send({
        starts_at: '2031-03-04T15:00:00-06:00',
        status: 'booked',
        services: ['exam.routine'],
        patient: { first_name: 'Ana', last_name: 'Lopez', dob: '1990-01-02', zipcode: '78701' },
        insurer_code: 'insurer:vision:vsp',
      })
      .expect(201);
    const res = await call(client, 'schedule_at_risk', {
      date: '2031-03-04',
      utc_offset: '-06:00',
    });
    expect(res.isError).toBeFalsy();
    const [visit] = res.structuredContent.at_risk;
    expect(visit).toMatchObject({ external_id: 'mcp-visit-1' });
    expect(visit.coverage_state).not.toBe('active');
    expect(visit.why[0]).toEqual(expect.any(String));
    const empty = await call(client, 'schedule_at_risk', { date: '2031-03-05' });
    expect(empty.structuredContent.at_risk).toEqual([]);
  });

  it('a narrower key sees fewer tools, and a hidden tool called by name is refused', async () => {
    const reader = await connect(await keyWith(a, ['eligibility:read']));
    expect((await reader.listTools()).tools.map((x) => x.name).sort()).toEqual([
      'explain_benefits',
      'get_eligibility',
      'list_insurers',
      'quote_materials',
    ]);
    const refused = reader.callTool({
      name: 'check_eligibility',
      arguments: { insurer_code: DEMO, patient: patient() },
    });
    await expect(refused).rejects.toThrow(McpError);
    await expect(refused).rejects.toThrow(/Tool check_eligibility not found/);
    await expect(reader.callTool({ name: 'schedule_at_risk', arguments: {} })).rejects.toThrow(
      /not found/,
    );
    await expect(reader.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /Tool no_such_tool not found/,
    );
  });

  it('bad tool input is a tool error naming the field, never a crash', async () => {
    const res = await call(client, 'check_eligibility', {
      insurer_code: DEMO,
      patient: { first_name: 'Maria', last_name: 'Garcia', dob: 'yesterday', zipcode: '78701' },
    });
    expect(res.isError).toBe(true);
    expect(res.structuredContent.errors.patient.dob).toBeDefined();
    const none = await call(client, 'check_eligibility', {});
    expect(none.isError).toBe(true);
    expect(none.structuredContent.errors.patient).toBeDefined();
    const wait = await call(client, 'check_eligibility', { patient: patient(), wait_seconds: 99 });
    expect(wait.isError).toBe(true);
    expect(wait.structuredContent.errors.wait_seconds).toBeDefined();
    const noUid = await call(client, 'get_eligibility', {});
    expect(noUid.isError).toBe(true);
    expect(noUid.structuredContent.errors.request_uid).toBeDefined();
    const quote = await call(client, 'quote_materials', {
      request_uid: uid,
      person_id: adultId,
      order: { lenses: { type: 'bifocal', retail: '10.00' } },
    });
    expect(quote.isError).toBe(true);
    expect(quote.structuredContent.errors.order.lenses.type).toBeDefined();
    const day = await call(client, 'schedule_at_risk', { date: 'tomorrow' });
    expect(day.isError).toBe(true);
    expect(day.structuredContent.errors.date).toBeDefined();
    const feb30 = await call(client, 'schedule_at_risk', { date: '2031-02-30' });
    expect(feb30.structuredContent.errors.date).toBeDefined();
    const odd = await call(client, 'get_eligibility', { request_uid: 42 });
    expect(odd.isError).toBe(true);
  });

  it('a body that is no MCP message is a JSON-RPC error, never a 500', async () => {
    const post = (body: unknown, type = 'application/json') =>
      request(t.app.getHttpServer())
        .post('/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .set('Authorization', `Bearer ${a.apiKey}`)
        .set('Content-Type', type)
        .send(body as object);
    const bodies: unknown[] = [
      {},
      [],
      { jsonrpc: '2.0' },
      { jsonrpc: '2.0', id: 1, method: 'no/such/method' },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 42 } },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_eligibility', arguments: 'x' },
      },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'check_eligibility', arguments: { patient: 'x', insurer_code: [1] } },
      },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'quote_materials', arguments: { request_uid: {}, order: [] } },
      },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'schedule_at_risk',
          arguments: { date: '2031-03-04', utc_offset: 5, location_code: 'nope' },
        },
      },
    ];
    for (const body of bodies) {
      const res = await post(body);
      expect([JSON.stringify(body), res.status < 500]).toEqual([JSON.stringify(body), true]);
    }
    const at = await post({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: {
        name: 'schedule_at_risk',
        arguments: { date: '2031-03-04', location_code: 'nope' },
      },
    });
    expect(at.body.result.isError).toBe(true);
    expect(at.body.result.structuredContent.errors.location_code).toBeDefined();
    expect((await post('not json', 'text/plain')).status).toBeLessThan(500);
    // A batch would be many requests for one of the key's: refused, nothing run.
    const call = { jsonrpc: '2.0', method: 'tools/call', params: { name: 'list_insurers' } };
    const batch = await post([
      { ...call, id: 1 },
      { ...call, id: 2 },
    ]);
    expect([batch.status, batch.body]).toEqual([
      400,
      { errors: { $: ['Send one JSON-RPC message per request: no batches.'] } },
    ]);
  });

  it("another account's request uid is not found", async () => {
    const other = await connect(b.apiKey, 'Api');
    for (const name of ['get_eligibility', 'explain_benefits']) {
      const res = await call(other, name, { request_uid: uid });
      expect(res.isError).toBe(true);
      expect(res.structuredContent).toEqual({ detail: `Eligibility request ${uid} not found.` });
    }
    const quote = await call(other, 'quote_materials', {
      request_uid: uid,
      person_id: adultId,
      order: { frame: { retail: '100.00' } },
    });
    expect(quote.isError).toBe(true);
    expect(quote.structuredContent.detail).toMatch(/not found/);
  });

  it('takes Api and Bearer keys alike, and refuses a missing or wrong one', async () => {
    const viaApi = await connect(a.apiKey, 'Api');
    expect((await viaApi.listTools()).tools).toHaveLength(ALL_TOOLS.length);
    const raw = (auth?: string) => {
      const r = request(t.app.getHttpServer())
        .post('/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      return auth ? r.set('Authorization', auth) : r;
    };
    expect((await raw()).status).toBe(401);
    expect((await raw('Bearer nope')).status).toBe(401);
    const narrow = await keyWith(a, ['patients:read']);
    const hidden = await request(t.app.getHttpServer())
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .set('Authorization', `Bearer ${narrow}`)
      .send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_eligibility' } });
    expect(hidden.status).toBe(200);
    expect(hidden.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
    expect(hidden.body.error.message).toContain('Tool get_eligibility not found');
    const ok = await raw(`Bearer ${a.apiKey}`);
    expect(ok.status).toBe(200);
    expect(ok.body.result.tools).toHaveLength(ALL_TOOLS.length);
    // Stateless: no session to stream or end.
    const get = await request(t.app.getHttpServer())
      .get('/mcp')
      .set('Authorization', `Bearer ${a.apiKey}`);
    expect(get.status).toBe(405);
    const del = await request(t.app.getHttpServer())
      .delete('/mcp')
      .set('Authorization', `Bearer ${a.apiKey}`);
    expect(del.status).toBe(405);
  });

  it('the audit trail lists each tool call with its name, and the data it touched', async () => {
    const db = t.app.get(DataSource);
    const rows: { action: string; resource_type: string; resource_id: string | null }[] =
      await db.query(
        `SELECT action, resource_type, resource_id FROM audit_events
          WHERE account_id = $1 ORDER BY created_at, id`,
        [a.accountId],
      );
    const calls = rows.filter((r) => r.resource_type === 'mcp_tool').map((r) => r.resource_id);
    for (const name of ALL_TOOLS) expect(calls).toContain(name);
    expect(rows.every((r) => r.resource_type !== 'mcp_tool' || r.action === 'call')).toBe(true);
    expect(rows).toContainEqual({
      action: 'create',
      resource_type: 'eligibility_request',
      resource_id: uid,
    });
    expect(rows).toContainEqual({
      action: 'read',
      resource_type: 'eligibility_request',
      resource_id: uid,
    });
    expect(rows.filter((r) => r.resource_type === 'quote' && r.action === 'create').length).toBe(2);
    // A refused hidden tool is no call; the other account's calls are in its own trail.
    const own: { n: string }[] = await db.query(
      `SELECT count(*) AS n FROM audit_events WHERE account_id = $1 AND resource_type = 'mcp_tool'`,
      [b.accountId],
    );
    expect(Number(own[0].n)).toBe(3);
  });
});

describe('the MCP door under the rate limit (docs/api.md, MCP)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '5', RATE_LIMIT_FALLBACK_PER_MINUTE: '5' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("counts each POST /mcp against the key's budget, as any request", async () => {
    const a = await createAccount(t.app);
    const list = () =>
      request(t.app.getHttpServer())
        .post('/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .set('Authorization', `Bearer ${a.apiKey}`)
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_insurers' } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await list()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const limited = await list();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
