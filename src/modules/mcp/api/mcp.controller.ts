import type { IncomingMessage } from 'node:http';
import { Req, Res } from '@nestjs/common';
import { ApiBody, ApiExcludeEndpoint, ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { DoorController } from '@/platform/http/doors';
import { ValidationFailed } from '@/platform/kernel/errors';
import { ApiRoute } from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import { auditContextOf, NotPatientData } from '@/modules/audit';
import { McpServerFactory } from '../domain/mcp-server.factory';
import type { McpCaller } from '../domain/mcp-tools';

const DESCRIPTION =
  'The Model Context Protocol over streamable HTTP, stateless: each POST carries JSON-RPC ' +
  'messages and is answered in JSON; any process answers any message, no session is kept. The ' +
  'tools listed are those the key’s scopes allow; each tool call is an audit event ' +
  '(`mcp_tool` `call`) besides the events of the data it reads or makes (docs/api.md, MCP).';

/** The agents' door (docs/api.md, MCP): MCP tools over the service's own routes. */
@DoorController('MCP', 'mcp')
export class McpController {
  constructor(private readonly servers: McpServerFactory) {}

  // Not patient data itself: each tool call records its own events (McpTools).
  @ApiRoute('post', '', 200, {
    scope: [],
    audit: NotPatientData(),
    summary: 'MCP messages (streamable HTTP, stateless)',
    description: DESCRIPTION,
  })
  @ApiBody({
    description: 'One JSON-RPC message of MCP (a batch is refused with 400).',
    schema: { type: 'object' },
    examples: {
      list: { value: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } },
    },
  })
  @ApiOkResponse({ description: 'The JSON-RPC answer.', schema: { type: 'object' } })
  @ApiResponse({ status: 202, description: 'Only notifications or responses were sent: no body.' })
  @ApiResponse({
    status: 400,
    description:
      'Not a JSON-RPC message of MCP: a JSON-RPC error (`-32700`, `-32600`), `id` null; a batch: `{"errors": {"$": [...]}}`.',
    content: { 'application/json': { schema: { type: 'object' } } },
  })
  @ApiResponse({
    status: 406,
    description:
      '`Accept` lists not both `application/json` and `text/event-stream`: a JSON-RPC error.',
    content: { 'application/json': { schema: { type: 'object' } } },
  })
  async post(@Req() req: AppRequest, @Res() res: Response): Promise<void> {
    // One message per POST: each is one request of the key (its rate limit, its audit), and MCP
    // since 2025-06-18 has no batches.
    if (Array.isArray(req.body))
      throw ValidationFailed.request('Send one JSON-RPC message per request: no batches.');
    const gone = new AbortController();
    const server = this.servers.create({ ...callerOf(req), signal: gone.signal });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      gone.abort();
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // The SDK reads `req.auth` as its own AuthInfo; the tools know the caller already.
    await transport.handleRequest(req as unknown as IncomingMessage, res, req.body);
  }

  // Not an operation of the document: the refusal the SDK's stateless servers answer.
  @ApiExcludeEndpoint()
  @ApiRoute('get', '', 405, {
    scope: [],
    audit: NotPatientData(),
    summary: 'Not served: the door keeps no session to stream (405)',
  })
  get(@Res() res: Response): void {
    methodNotAllowed(res);
  }

  // Not an operation of the document: the refusal the SDK's stateless servers answer.
  @ApiExcludeEndpoint()
  @ApiRoute('delete', '', 405, {
    scope: [],
    audit: NotPatientData(),
    summary: 'Not served: the door keeps no session to end (405)',
  })
  remove(@Res() res: Response): void {
    methodNotAllowed(res);
  }
}

function callerOf(req: AppRequest): McpCaller {
  const auth = req.auth!;
  return {
    accountId: auth.accountId,
    apiKeyId: auth.apiKeyId,
    scopes: auth.scopes,
    audit: auditContextOf(req)!,
  };
}

/** As the SDK's stateless servers answer a GET or DELETE. */
function methodNotAllowed(res: Response): void {
  res
    .status(405)
    .set('Allow', 'POST')
    .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
}
