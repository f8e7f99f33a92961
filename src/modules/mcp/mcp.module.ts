import { Module } from '@nestjs/common';
import { AppointmentsModule } from '@/modules/appointments';
import { AuditModule } from '@/modules/audit';
import { EligibilityModule } from '@/modules/eligibility';
import { InsurersModule } from '@/modules/insurers';
import { QuotesModule } from '@/modules/quotes';
import { McpController } from './api/mcp.controller';
import { McpServerFactory } from './domain/mcp-server.factory';
import { McpTools } from './domain/mcp-tools';

/** The agents' door (docs/api.md, MCP): POST /mcp and its tools. */
@Module({
  imports: [EligibilityModule, QuotesModule, AppointmentsModule, InsurersModule, AuditModule],
  controllers: [McpController],
  providers: [McpTools, McpServerFactory],
})
export class McpModule {}
