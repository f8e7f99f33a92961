import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { ConfigError } from '@/platform/config/env';
import { loadMcpBridgeConfig } from '@/platform/config/mcp-bridge';

/**
 * The stdio bridge (docs/api.md, MCP), `npm run --silent mcp`: an agent that starts MCP servers
 * as programs talks to this one over standard input and output, and every message goes as it is
 * to a running service's `POST /mcp` with `Authorization: Bearer $VISION_API_KEY`, its answers
 * back the same way. The MCP server lives in the service only: the bridge keeps no tools of its
 * own. Standard output carries protocol messages and nothing else; words go to standard error.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadMcpBridgeConfig();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`mcp bridge: ${e.message}\n`);
    process.exit(2);
  }
  const stdio = new StdioServerTransport();
  const http = new StreamableHTTPClientTransport(new URL(`${config.baseUrl}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${config.apiKey}` } },
  });

  http.onmessage = (message: JSONRPCMessage) => {
    // The version the handshake agreed on goes on every later request, as the SDK's client does.
    const version = isJSONRPCResultResponse(message) ? message.result.protocolVersion : undefined;
    if (typeof version === 'string') http.setProtocolVersion(version);
    void stdio.send(message);
  };
  http.onerror = (e) => process.stderr.write(`mcp bridge: ${e.message}\n`);
  stdio.onmessage = (message: JSONRPCMessage) => {
    http.send(message).catch((e: Error) => {
      process.stderr.write(`mcp bridge: ${config.baseUrl}/mcp: ${e.message}\n`);
      // A request the service did not answer gets an error, so the agent does not wait forever.
      if (isJSONRPCRequest(message))
        void stdio.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32603, message: `The service did not answer: ${e.message}` },
        });
    });
  };
  stdio.onclose = () => {
    void http.close().finally(() => process.exit(0));
  };
  await http.start();
  await stdio.start();
  process.stdin.on('end', () => void stdio.close());
}

main().catch((e: unknown) => {
  process.stderr.write(`mcp bridge: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
