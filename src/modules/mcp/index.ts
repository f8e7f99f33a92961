/**
 * The door of the MCP module (docs/api.md, MCP): what other modules use of it. Another module
 * imports from '@/modules/mcp' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { McpModule } from './mcp.module';
