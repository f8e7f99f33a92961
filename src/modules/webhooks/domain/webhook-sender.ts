import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveTarget, TargetRefused } from './target-guard';

const USER_AGENT = 'VisionEligibility-Webhooks/1.0 (+https://github.com/vision-eligibility)';
const RESPONSE_KEEP_BYTES = 1024;

interface SendInput {
  url: string;
  body: string;
  deliveryId: string;
  /** The event type, sent as X-Event-Type (docs/api.md, Claim lifecycle). */
  event?: string;
  secret: string | null;
  timeoutMs: number;
  allowPrivate: boolean;
  /** The webhook's `allow_nonstandard_port` (docs/api.md, Webhooks), checked again at every attempt. */
  allowNonstandardPort: boolean;
}

export interface SendResult {
  startedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
  ok: boolean;
}

/** X-Signature: hex HMAC-SHA256 of the raw body, keyed with the secret as given (docs/api.md, Webhooks). */
function xSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

/**
 * Standard Webhooks signature (`v1,<base64>` over `id.timestamp.body`). A `whsec_` secret is
 * base64 as the standard says; any other secret is used as raw bytes (verify with
 * `new Webhook(secret, { format: 'raw' })`).
 */
function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = secret.startsWith('whsec_')
    ? Buffer.from(secret.slice(6), 'base64')
    : Buffer.from(secret, 'utf8');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

function deliveryHeaders(
  input: Pick<SendInput, 'body' | 'deliveryId' | 'secret' | 'event'>,
  now = new Date(),
) {
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(input.body, 'utf8')),
    'User-Agent': USER_AGENT,
    'X-Delivery-Id': input.deliveryId,
    'webhook-id': input.deliveryId,
    'webhook-timestamp': String(timestamp),
  };
  if (input.event) headers['X-Event-Type'] = input.event;
  if (input.secret) {
    headers['X-Signature'] = xSignature(input.secret, input.body);
    headers['webhook-signature'] = standardSignature(
      input.secret,
      input.deliveryId,
      timestamp,
      input.body,
    );
  }
  return headers;
}

/** One POST of a delivery. Never throws: every outcome is a SendResult to record. */
export async function sendDelivery(input: SendInput): Promise<SendResult> {
  const startedAt = new Date();
  const started = process.hrtime.bigint();
  const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
  const failure = (
    error: string,
    statusCode: number | null = null,
    responseBody: string | null = null,
  ): SendResult => ({
    startedAt,
    statusCode,
    durationMs: elapsed(),
    error,
    responseBody,
    ok: false,
  });

  let target;
  try {
    target = await resolveTarget(input.url, input.allowPrivate, input.allowNonstandardPort);
  } catch (e) {
    return failure(e instanceof TargetRefused ? `refused: ${e.message}` : (e as Error).message);
  }
  // Connect to the address that was checked, whatever the name resolves to a moment later.
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else callback(null, target.address, target.family);
  };

  return new Promise<SendResult>((resolve) => {
    const client = target.url.protocol === 'https:' ? https : http;
    let settled = false;
    const done = (result: SendResult) => {
      if (!settled) {
        settled = true;
        resolve(result);
      }
    };
    const req = client.request(
      target.url,
      {
        method: 'POST',
        headers: deliveryHeaders(input, startedAt),
        lookup: pinned,
        timeout: input.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_KEEP_BYTES) {
            chunks.push(chunk.subarray(0, RESPONSE_KEEP_BYTES - kept));
            kept += Math.min(chunk.length, RESPONSE_KEEP_BYTES - kept);
          }
        });
        const finish = () => {
          const status = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8');
          const ok = status >= 200 && status < 300;
          done({
            startedAt,
            statusCode: status,
            durationMs: elapsed(),
            error: ok ? null : `HTTP ${status}`,
            responseBody: text,
            ok,
          });
        };
        res.on('end', finish);
        res.on('error', (e) => done(failure(e.message, res.statusCode ?? null)));
      },
    );
    // Overall deadline, including a receiver that accepts the connection and never answers.
    const deadline = setTimeout(() => {
      req.destroy(new Error(`timed out after ${input.timeoutMs} ms`));
    }, input.timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`timed out after ${input.timeoutMs} ms`)));
    req.on('error', (e) => done(failure(e.message)));
    req.on('close', () => clearTimeout(deadline));
    req.end(input.body);
  });
}
