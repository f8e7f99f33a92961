import { environment } from './env-file';
import { type Env, envReaders } from './env-parts';
import { ConfigError } from './env';

/** docs/api.md, MCP: where the stdio bridge (`npm run --silent mcp`) sends an agent's messages. */
export interface McpBridgeConfig {
  /** An API key of the account; sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** The running service, without a trailing slash; the bridge posts to `<baseUrl>/mcp`. */
  baseUrl: string;
}

/**
 * VISION_API_KEY and VISION_BASE_URL, both required: a missing or bad one stops the bridge with
 * one line per variable (`ConfigError`), before anything is written to standard output.
 */
export function loadMcpBridgeConfig(env: Env = environment()): McpBridgeConfig {
  const problems: string[] = [];
  const { url } = envReaders(env, problems);
  const apiKey = env.VISION_API_KEY?.trim() ?? '';
  if (!apiKey) problems.push('VISION_API_KEY: required: an API key of your account');
  let baseUrl = '';
  if (!env.VISION_BASE_URL?.trim())
    problems.push('VISION_BASE_URL: required: the service, e.g. http://localhost:3000');
  else baseUrl = url('VISION_BASE_URL', '', ['http:', 'https:']).replace(/\/+$/, '');
  if (problems.length > 0) throw new ConfigError(problems);
  return { apiKey, baseUrl };
}
