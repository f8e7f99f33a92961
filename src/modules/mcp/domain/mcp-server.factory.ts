import { Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { type McpCaller, McpTools } from './mcp-tools';

/** The server's name and version in the MCP handshake. */
export const MCP_SERVER_INFO = { name: 'vision-eligibility', version: '1.0.0' };

/**
 * One MCP server for one HTTP request (docs/api.md, MCP): stateless, it knows only the caller's
 * key. It lists the tools the key's scopes allow, and refuses a call to any other one as a
 * JSON-RPC error (`Tool … not found`, as for a tool that does not exist): a hidden tool is not
 * told apart from an unknown one. The SDK's McpServer turns every refusal into a tool result, so
 * the tools are served by the SDK's lower-level Server.
 */
@Injectable()
export class McpServerFactory {
  constructor(private readonly tools: McpTools) {}

  create(caller: McpCaller): Server {
    const server = new Server(MCP_SERVER_INFO, {
      capabilities: { tools: { listChanged: false } },
      instructions:
        'Vision-insurance eligibility: check a patient, read the plan and what the patient can ' +
        'have and when, quote materials at the counter, and find the day’s visits at risk.',
    });
    const allowed = this.tools.allowed(caller);
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: allowed.map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema as { type: 'object' },
        annotations: {
          readOnlyHint: t.name !== 'check_eligibility' && t.name !== 'quote_materials',
        },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { name, arguments: args } = request.params;
      if (!allowed.some((t) => t.name === name))
        throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
      return { ...(await this.tools.call(caller, name, args ?? {})) };
    });
    return server;
  }
}
