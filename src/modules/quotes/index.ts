/**
 * The door of the quotes module (docs/api.md, The counter): what other modules use of it.
 * Another module imports from '@/modules/quotes' only (lint refuses otherwise; docs/architecture.md,
 * Module graph).
 */
export { QuotesModule } from './quotes.module';
export { QuotesPagesModule } from './pages/quotes-pages.module';
// The counter's service and body, which the MCP door's quote_materials tool uses (docs/api.md, MCP).
export { QuotesService } from './domain/quotes.service';
export { CreateQuoteDto } from './api/dto/create-quote.dto';
