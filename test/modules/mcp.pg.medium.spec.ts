import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ALL_SCOPES } from '@/platform/http/scopes';
import { ClaimedServices } from '@/modules/patients';
import { McpModule } from '@/modules/mcp';
import { McpServerFactory } from '@/modules/mcp/domain/mcp-server.factory';
import type { McpCaller } from '@/modules/mcp/domain/mcp-tools';
import { createPractice } from '../support/factories';
import { bootModule, ModuleContext } from '../support/module';

/**
 * The MCP module booted alone (test/support/module.ts): its server, reached by the SDK's client
 * in memory, lists the tools a key's scopes allow, starts a check through the eligibility
 * module's intake, and records each call in the audit trail, in the caller's account only.
 */
describe('mcp module, alone', () => {
  let t: ModuleContext;
  let accountId: string;
  let otherId: string;
  const clients: Client[] = [];

  const callerOf = (account: string, scopes: readonly string[]): McpCaller => ({
    accountId: account,
    apiKeyId: '00000000-0000-4000-8000-000000000001',
    scopes,
    audit: {
      actor: {
        accountId: account,
        type: 'api_key',
        name: 'vk_test',
        apiKeyId: null,
        userId: null,
      },
      requestId: 'req-mcp-medium',
      ip: '127.0.0.1',
    },
  });
  const connect = async (caller: McpCaller) => {
    const server = t.ctx.get(McpServerFactory).create(caller);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'medium', version: '1.0.0' });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await bootModule(McpModule, { openHooks: [ClaimedServices] });
    ({ accountId } = await createPractice(t.ctx));
    ({ accountId: otherId } = await createPractice(t.ctx));
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  it('boots with the modules its tools wrap, without the web shell', () => {
    expect(t.booted).toEqual(
      expect.arrayContaining([
        'AppointmentsModule',
        'AuditModule',
        'EligibilityModule',
        'InsurersModule',
        'McpModule',
        'QuotesModule',
      ]),
    );
    expect(t.booted).not.toContain('WebModule');
  });

  it("lists the tools the key's scopes allow", async () => {
    const all = await connect(callerOf(accountId, ALL_SCOPES));
    expect((await all.listTools()).tools).toHaveLength(6);
    const none = await connect(callerOf(accountId, ['patients:read']));
    expect((await none.listTools()).tools.map((x) => x.name)).toEqual(['list_insurers']);
    await expect(none.callTool({ name: 'get_eligibility', arguments: {} })).rejects.toThrow(
      /Tool get_eligibility not found/,
    );
  });

  it('starts a check in its account, which another account does not find, each call audited', async () => {
    const mine = await connect(callerOf(accountId, ALL_SCOPES));
    const started = (await mine.callTool({
      name: 'check_eligibility',
      arguments: {
        insurer_code: 'insurer:demo:vision',
        patient: { first_name: 'Maria', last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' },
        wait_seconds: 0,
      },
    })) as unknown as {
      isError?: boolean;
      structuredContent: { request_uid: string; status: string };
    };
    expect(started.isError).toBeFalsy();
    const uid = started.structuredContent.request_uid;
    expect(typeof uid).toBe('string');

    const theirs = await connect(callerOf(otherId, ALL_SCOPES));
    const res = (await theirs.callTool({
      name: 'get_eligibility',
      arguments: { request_uid: uid },
    })) as unknown as { isError?: boolean; structuredContent: unknown };
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toEqual({ detail: `Eligibility request ${uid} not found.` });

    const rows: {
      account_id: string;
      action: string;
      resource_type: string;
      resource_id: string;
    }[] = await t.db.query(
      `SELECT account_id, action, resource_type, resource_id FROM audit_events
          WHERE request_id = 'req-mcp-medium' ORDER BY id`,
    );
    expect(rows.filter((r) => r.account_id === accountId)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: 'call',
          resource_type: 'mcp_tool',
          resource_id: 'check_eligibility',
        }),
        expect.objectContaining({
          action: 'create',
          resource_type: 'eligibility_request',
          resource_id: uid,
        }),
      ]),
    );
    // The other account's call is in its own trail; its refused read leaves no read event.
    expect(rows.filter((r) => r.account_id === otherId)).toEqual([
      expect.objectContaining({ action: 'call', resource_id: 'get_eligibility' }),
    ]);
  });
});
