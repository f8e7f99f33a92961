import type { Request } from 'express';

/** What the API key guard attaches to an authenticated request. */
export interface AuthContext {
  accountId: string;
  apiKeyId: string;
}

export interface AppRequest extends Request {
  id: string;
  auth?: AuthContext;
}
