/**
 * The door of the FHIR module (docs/api.md, FHIR R4): what other modules use of it. Another
 * module imports from '@/modules/fhir' only (lint refuses otherwise; docs/architecture.md,
 * Module graph).
 */
export { FhirModule } from './fhir.module';
