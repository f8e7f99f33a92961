/**
 * What an integrator writes with the client package (clients/typescript): compiled with
 * `tsc --strict` in a throwaway CommonJS project and a throwaway ES module project, then run
 * against the service. It receives its own webhook deliveries on a port of its own and prints
 * what happened as one JSON line. SECRET_KIND chooses the webhook secret: `generated` (a `whsec_`
 * secret of the service) or `own` (printable ASCII, used as bytes).
 */
export const CLIENT_PACKAGE_PROGRAM = `
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, createClient, ok, type components } from '@vision-eligibility/client';
import { verifyWebhook, type WebhookEvent } from '@vision-eligibility/client/webhooks';

type Delivery = { headers: IncomingHttpHeaders; raw: Buffer };

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(name + ' is not set');
  return value;
};

/** Whether verifyWebhook refuses the delivery. */
function refused(
  raw: string | Buffer,
  headers: Parameters<typeof verifyWebhook>[1],
  secret: string,
): boolean {
  try {
    verifyWebhook(raw, headers, secret);
    return false;
  } catch {
    return true;
  }
}

/** Standard Webhooks' signature, computed here independently of the package. */
function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8');
  const mac = createHmac('sha256', key).update(id + '.' + timestamp + '.' + body).digest('base64');
  return 'v1,' + mac;
}

async function main(): Promise<void> {
  const baseUrl = env('BASE_URL');
  const client = createClient({ baseUrl, apiKey: env('API_KEY') });

  // A receiver of our own: deliveries by request_uid.
  const deliveries = new Map<string, Delivery>();
  const waiting = new Map<string, (d: Delivery) => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const uid = (JSON.parse(raw.toString('utf8')) as { request_uid?: string }).request_uid ?? '';
      const delivery = { headers: req.headers, raw };
      deliveries.set(uid, delivery);
      waiting.get(uid)?.(delivery);
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const delivered = (uid: string) =>
    new Promise<Delivery>((resolve) => {
      const done = deliveries.get(uid);
      if (done) resolve(done);
      else waiting.set(uid, resolve);
    });

  const own = process.env.SECRET_KIND === 'own';
  const hook = await ok(
    client.POST('/api/auth/v1/webhooks/', {
      body: own
        ? { url: 'http://127.0.0.1:' + port + '/hook', secret: 'client-package-secret-1' }
        : { url: 'http://127.0.0.1:' + port + '/hook', generate_secret: true },
    }),
  );
  const secret: string = hook.secret ?? '';

  // A sandbox check, its result read once the webhook says it finished.
  const patient = { first_name: 'Maria', last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' };
  const result = await client.searchAndWait(
    { insurer_code: 'insurer:demo:vision', patient },
    { timeoutMs: 60_000, webhook: (uid) => delivered(uid) },
  );
  const v1 = await client.searchAndWait(
    { insurer_code: 'insurer:demo:vision', patient },
    { version: 'v1', timeoutMs: 60_000 },
  );

  // The delivery of that check, verified; then the same delivery altered.
  const delivery = await delivered(result.request_uid);
  const event: WebhookEvent = verifyWebhook(delivery.raw, delivery.headers, secret);
  const finished = event.type === 'eligibility.finished' ? event.body : null;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(delivery.headers))
    if (typeof value === 'string') headers[name] = value;
  const body = delivery.raw.toString('utf8');
  const id = headers['webhook-id'];
  const now = Math.floor(Date.now() / 1000);
  const resigned = (timestamp: number) => ({
    ...headers,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, id, timestamp, body),
  });
  const webhook = {
    type: event.type,
    id: event.id,
    sameAsGet: finished !== null && JSON.stringify(finished) === JSON.stringify(result),
    secretKind: secret.startsWith('whsec_') ? 'whsec' : 'raw',
    tamperedBody: refused(body.replace('"complete"', '"error"'), headers, secret),
    wrongSecret: refused(delivery.raw, headers, secret + 'x'),
    resignedNow: !refused(body, resigned(now), secret),
    oldTimestamp: refused(body, resigned(now - 600), secret),
    headersObject: !refused(body, new Headers(headers), secret),
  };

  // X-Event-Type is not signed: whatever it says, the type is the signed body's.
  const typed = (raw: string, label: string | null): string => {
    const signed = { ...resigned(now), 'webhook-signature': sign(secret, id, now, raw) };
    const unlabelled = Object.fromEntries(
      Object.entries(signed).filter(([name]) => name !== 'x-event-type'),
    );
    return verifyWebhook(raw, label === null ? unlabelled : { ...signed, 'x-event-type': label }, secret)
      .type;
  };
  const claim = JSON.stringify({ code: 'CLM-FORGED', status: 'paid', status_history: [], services: [] });
  const batch = JSON.stringify({ batch_uid: 'b-1', status: 'complete', count: 1, counts: {} });
  const remittance = JSON.stringify({ id: 'r-1', payment_amount: '10.00', trace_number: 'T1', claims: [] });
  const task = JSON.stringify({ id: 't-1', state: 'queued', due_by: '2030-01-01T00:00:00Z', overdue: false, history: [] });
  const forged = {
    resultAsClaim: typed(body, 'claim.status_changed'),
    resultAsUpdated: typed(body, 'eligibility.updated'),
    resultUnlabelled: typed(body, null),
    claimAsResult: typed(claim, 'eligibility.finished'),
    batchAsClaim: typed(batch, 'claim.status_changed'),
    remittanceAsBatch: typed(remittance, 'eligibility.batch_finished'),
    newTaskAsOverdue: typed(task, 'verification_task.overdue'),
    unknownBody: refused('{"hello":"world"}', { ...resigned(now), 'webhook-signature': sign(secret, id, now, '{"hello":"world"}') }, secret),
  };

  // Paging: three patients, listed two to a page.
  const codes: string[] = [];
  for (const first_name of ['Ana', 'Ben', 'Cleo']) {
    const created = await ok(
      client.POST('/api/auth/v1/patients/', {
        body: { first_name, last_name: 'Pager', dob: '1990-01-02' },
      }),
    );
    codes.push(created.code);
  }
  const listed: string[] = [];
  const pages: (string | null | undefined)[] = [];
  for await (const p of client.listAll('/api/auth/v1/patients/', {
    query: { search: 'Pager', limit: 2 },
  })) {
    const item: components['schemas']['PatientResponse'] = p;
    listed.push(item.code);
  }
  const firstPage = await ok(
    client.GET('/api/auth/v1/patients/', { params: { query: { search: 'Pager', limit: 2 } } }),
  );
  pages.push(firstPage.next_cursor);

  // A typed error with the field errors.
  let error: Record<string, unknown> = {};
  try {
    await ok(
      client.POST('/api/auth/v1/eligibility/', {
        body: { insurer_code: 'insurer:demo:vision', patient: { ...patient, dob: 'yesterday' } },
      }),
    );
  } catch (e) {
    if (e instanceof ApiError)
      error = { status: e.status, fields: e.fieldErrors(), requestId: e.requestId };
  }

  // Retries: a 503 with Retry-After is sent again; a wait longer than allowed is not waited.
  let calls = 0;
  const flaky = createClient({
    baseUrl,
    apiKey: env('API_KEY'),
    fetch: async (request) => {
      calls += 1;
      if (calls === 1)
        return new Response(JSON.stringify({ detail: 'Service temporarily unavailable, please retry.' }), {
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': '1' },
        });
      return fetch(request);
    },
  });
  const locations = await ok(flaky.GET('/api/auth/v1/locations/'));
  const retried = { calls, locations: locations.result.length };
  let throttledCalls = 0;
  const throttled = createClient({
    baseUrl,
    apiKey: env('API_KEY'),
    maxDelayMs: 5_000,
    fetch: async () => {
      throttledCalls += 1;
      return new Response(JSON.stringify({ detail: 'Request was throttled. Expected available in 120 seconds.' }), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '120' },
      });
    },
  });
  let throttledError: Record<string, unknown> = {};
  try {
    await ok(throttled.GET('/api/auth/v1/locations/'));
  } catch (e) {
    if (e instanceof ApiError)
      throttledError = { status: e.status, retryAfter: e.retryAfter, detail: e.detail };
  }

  server.close();
  process.stdout.write(
    JSON.stringify({
      search: { status: result.status, plans: result.results?.length ?? 0, v1Status: v1.status },
      webhook,
      forged,
      paging: { created: codes, listed, firstNextCursor: pages[0] ?? null },
      error,
      retried,
      throttled: { ...throttledError, calls: throttledCalls },
    }) + '\\n',
  );
}

main().catch((e: unknown) => {
  process.stderr.write(String(e instanceof Error ? e.stack : e) + '\\n');
  process.exit(1);
});
`;
