import type { Request } from 'express';

/** What the API key guard attaches to an authenticated request. */
export interface AuthContext {
  accountId: string;
  apiKeyId: string;
  /** The key's display prefix: how the audit trail names it. */
  apiKeyPrefix: string;
  /** The key's scopes (SECURITY.md), as stored. */
  scopes: string[];
}

export interface AppRequest extends Request {
  id: string;
  auth?: AuthContext;
}
