/**
 * The door of the quotes module (docs/api.md, The counter): what other modules use of it.
 * Another module imports from '@/modules/quotes' only (lint refuses otherwise; docs/architecture.md,
 * Module graph).
 */
export { QuotesModule } from './quotes.module';
export { QuotesPagesModule } from './pages/quotes-pages.module';
