/** API key scopes and the route decorator: route metadata, shared code (src/common/scopes.ts). */
export * from '@/common/scopes';
