export {
  createClient,
  ok,
  type ClientConfig,
  type CreateEligibility,
  type EligibilityResultV1,
  type EligibilityResultV2,
  type ListItem,
  type ListParams,
  type ListPath,
  type VisionClient,
  type WaitOptions,
} from './client.js';
export { ApiError, WaitTimeoutError, type FieldErrors } from './errors.js';
export type { RetryOptions } from './retry.js';
export type { components, operations, paths } from './schema.js';
