/**
 * The door of the web module, the shell of the web application: what other modules use of it.
 * Another module imports from '@/modules/web' only (lint refuses otherwise; docs/architecture.md,
 * Module graph). A feature's pages (`src/modules/<feature>/pages/`) import WebModule (sessions,
 * sign-in, the page pipeline, the global EmbeddedReachGuard) and the helpers below.
 */
export { uploadedFile } from './batch-upload';
export { type CsvColumns, csvLimits, readCsvColumns } from './csv-columns';
export { csvDownload, sendPdf } from './downloads';
export { EmbeddedReach } from './embedded-session';
export { bindForm, checkedValues, formFields, submitForm } from './forms';
export { FormPage, type Typed } from './form-page';
export { ListPage } from './list-page';
export { setupViews } from './views';
export { accountOf, flash, redirectAfter, redirectWith, renderPage, webUser } from './web-context';
export { AdminOnly } from './web-roles';
export { WebModule } from './web.module';
