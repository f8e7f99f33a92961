import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from '@/config/env';

/**
 * Structured JSON logs. Credentials and secrets are redacted wherever they might appear, request
 * URLs are logged without their query string (a patient search is patient data), and bodies are
 * never logged.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret',
  '*.api_key',
  '*.apiKey',
  '*.key',
  '*.token',
  '*.authorization',
];

/**
 * Request headers worth a log line. An allowlist, not a denylist: clients put keys in headers of
 * their own invention (`Api-Key`, `X-Auth-Token`, `Proxy-Authorization`), and those must not be
 * written down. Credential headers appear only as "[REDACTED]", to show they were sent.
 */
const LOGGED_HEADERS = [
  'host',
  'user-agent',
  'content-type',
  'content-length',
  'accept',
  'origin',
  'x-forwarded-for',
];
const REDACTED_HEADERS = ['authorization', 'cookie', 'x-api-key', 'proxy-authorization'];

export function loggedHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of LOGGED_HEADERS) if (headers[name] !== undefined) out[name] = headers[name];
  for (const name of REDACTED_HEADERS) if (headers[name] !== undefined) out[name] = '[REDACTED]';
  return out;
}

export function loggerParams(config: AppConfig): Params {
  return {
    pinoHttp: [
      {
        level: config.logLevel,
        redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
        genReqId: (req: IncomingMessage) =>
          (req as IncomingMessage & { id?: string }).id ?? randomUUID(),
        customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
          err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
        autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health') },
        serializers: {
          req: (req: {
            id: string;
            method: string;
            url: string;
            headers: Record<string, unknown>;
          }) => ({
            id: req.id,
            method: req.method,
            path: (req.url ?? '').split('?')[0],
            headers: loggedHeaders(req.headers),
          }),
          res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        },
        customProps: (req: IncomingMessage) => {
          const auth = (req as IncomingMessage & { auth?: { accountId: string } }).auth;
          return auth ? { accountId: auth.accountId } : {};
        },
      },
      process.stdout,
    ],
  };
}
