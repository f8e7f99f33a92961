import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client as Pg } from 'pg';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadConfig } from '@/platform/config/env';
import { freePort, resetState } from './support/app';
import { DEMO, patient } from './support/eligibility';

const ROOT = join(__dirname, '..');
const STARTUP_MS = 150_000;
const TOOLS = [
  'check_eligibility',
  'explain_benefits',
  'get_eligibility',
  'list_insurers',
  'quote_materials',
  'schedule_at_risk',
];

interface Service {
  child: ChildProcess;
  base: string;
  output: () => string;
}

/** src/main.ts as a child process (ts-node), one process serving the API on `port`. */
function startService(port: number, seed: boolean): Service {
  let output = '';
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'src/main.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        TS_NODE_PROJECT: 'tsconfig.json',
        PORT: String(port),
        PUBLIC_URL: base,
        WEB_CONCURRENCY: '1',
        ROLE: 'all',
        DEMO_SEED: seed ? 'true' : 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return { child, base, output: () => output };
}

async function until<T>(probe: () => T | Promise<T>, what: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type ToolResult = { isError?: boolean; structuredContent?: any };

/**
 * docs/api.md, MCP, over real processes: two processes of the service on one database answer
 * the SDK's client in turn (the door keeps no session), the stdio bridge (`npm run --silent mcp`)
 * relays the SDK's stdio client to the service, and the MCP inspector's CLI lists the tools.
 */
describe('the MCP door across processes, over stdio and to the inspector', () => {
  let first: Service;
  let second: Service;
  let holder: Pg | null = null;
  let key: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    const config = loadConfig();
    await resetState(config);
    // Held open: other runs drop test databases nobody is connected to (cluster.pg.e2e-spec.ts).
    holder = new Pg({ connectionString: config.databaseUrl });
    await holder.connect();
    first = startService(await freePort(), true);
    await until(() => first.output().includes('Try it:'), 'the first process', STARTUP_MS);
    key = /API key:\s+(vk_\S+)/.exec(first.output())![1];
    second = startService(await freePort(), false);
    await until(() => second.output().includes('Listening on'), 'the second process', STARTUP_MS);
  }, 2 * STARTUP_MS);

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    // SIGTERM: each stops its own processes; SIGKILL when one has not within 20 s.
    await Promise.all(
      [first, second].map(async (s) => {
        if (!s || s.child.exitCode !== null || s.child.signalCode !== null) return;
        const exited = new Promise((r) => s.child.once('exit', r));
        s.child.kill('SIGTERM');
        const timer = setTimeout(() => s.child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    await holder?.end();
  });

  it('two processes on one database answer one client in turn', async () => {
    const hits = new Map<string, number>();
    let turn = 0;
    // Each HTTP request of the client goes to the other process than the one before.
    const alternating: typeof fetch = (input, init) => {
      const target = [first.base, second.base][turn++ % 2];
      const url = new URL(String(input instanceof Request ? input.url : input));
      hits.set(target, (hits.get(target) ?? 0) + 1);
      return fetch(`${target}${url.pathname}${url.search}`, init);
    };
    const client = new Client({ name: 'mcp-cluster', version: '1.0.0' });
    clients.push(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${first.base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
        fetch: alternating,
      }),
    );
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const checked = (await client.callTool({
      name: 'check_eligibility',
      arguments: { insurer_code: DEMO, patient: patient({ member_id: 'VSP123456789' }) },
    })) as ToolResult;
    expect(checked.isError).toBeFalsy();
    expect(checked.structuredContent.status).toBe('complete');
    const uid = checked.structuredContent.request_uid as string;
    const person = checked.structuredContent.results[0].persons[0];
    // Read back through the other process, then quoted on its answer.
    const read = (await client.callTool({
      name: 'get_eligibility',
      arguments: { request_uid: uid },
    })) as ToolResult;
    expect(read.structuredContent.request_uid).toBe(uid);
    const quote = (await client.callTool({
      name: 'quote_materials',
      arguments: {
        request_uid: uid,
        person_id: person.id,
        order: { frame: { retail: '189.00' } },
      },
    })) as ToolResult;
    expect(quote.isError).toBeFalsy();
    expect(quote.structuredContent.lines[0].item).toBe('frame');
    expect(hits.get(first.base)).toBeGreaterThanOrEqual(2);
    expect(hits.get(second.base)).toBeGreaterThanOrEqual(2);
    // Both processes recorded calls in the one trail.
    const { rows } = await holder!.query(
      `SELECT resource_id FROM audit_events WHERE resource_type = 'mcp_tool'`,
    );
    expect(rows.map((r) => r.resource_id).sort()).toEqual([
      'check_eligibility',
      'get_eligibility',
      'quote_materials',
    ]);
  }, 60_000);

  it('npm run --silent mcp bridges the SDK’s stdio client to the service', async () => {
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.mcp).toContain(
      'src/cli/mcp-bridge.ts',
    );
    const transport = new StdioClientTransport({
      command: 'npm',
      args: ['run', '--silent', 'mcp'],
      cwd: ROOT,
      env: {
        ...(process.env as Record<string, string>),
        VISION_API_KEY: key,
        VISION_BASE_URL: `${second.base}/`,
      },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'mcp-stdio', version: '1.0.0' });
    clients.push(client);
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe('vision-eligibility');
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const insurers = (await client.callTool({ name: 'list_insurers' })) as ToolResult;
    expect(insurers.structuredContent.result.map((i: any) => i.insurer_code)).toContain(DEMO);
    const bad = (await client.callTool({
      name: 'get_eligibility',
      arguments: { request_uid: 'nope' },
    })) as ToolResult;
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toEqual({ detail: 'Eligibility request nope not found.' });
    await expect(client.callTool({ name: 'no_such_tool' })).rejects.toThrow(/not found/);
    await client.close();
    expect(stderr).toBe('');
  }, 90_000);

  it('the bridge says which variable is missing, on standard error only', async () => {
    const env = { ...process.env };
    delete env.VISION_API_KEY;
    const out = await promisify(execFile)('npm', ['run', '--silent', 'mcp'], {
      cwd: ROOT,
      env: { ...env, VISION_BASE_URL: second.base },
    }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect(out).toMatchObject({ code: 2, stdout: '' });
    expect((out as { stderr: string }).stderr).toContain('VISION_API_KEY: required');
  }, 60_000);

  it('the MCP inspector’s CLI lists the tools of the running service', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        join(ROOT, 'node_modules/.bin/mcp-inspector-cli'),
        '--cli',
        `${first.base}/mcp`,
        '--transport',
        'http',
        '--header',
        `Authorization: Bearer ${key}`,
        '--method',
        'tools/list',
      ],
      // inspector-cli 1.0.3 finds its package.json by `existsSync('../package.json')`, relative
      // to the working directory, then imports it relative to itself: a directory whose parent
      // holds a package.json makes it import its own.
      { cwd: join(ROOT, 'test'), timeout: 60_000 },
    );
    const listed = JSON.parse(stdout) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name).sort()).toEqual(TOOLS);
  }, 90_000);
});
