/** API key scopes and the route decorator: route metadata, shared code (src/platform/http/scopes.ts). */
export * from '@/platform/http/scopes';
