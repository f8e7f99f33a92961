import type { Request } from 'express';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { DetailError } from '../../kernel/errors';
import { MSG } from '../../kernel/messages';

/** 413 `{"detail": "Request body too large."}` (docs/api.md, Conventions). */
export class BodyTooLarge extends DetailError {
  readonly status = 413;
  constructor() {
    super(MSG.tooLarge);
  }
}

/** 415 `{"detail": "..."}`: a body the route does not read (its type or its encoding). */
export class BodyNotReadable extends DetailError {
  readonly status = 415;
}

/** 400 `{"detail": "Request aborted."}`: the client stopped sending before the body ended. */
class BodyAborted extends DetailError {
  readonly status = 400;
  constructor() {
    super('Request aborted.');
  }
}

const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** The declared length, or null (chunked, or a value that is no length). */
export function declaredLength(req: Request): number | null {
  const value = req.headers['content-length'];
  if (value === undefined || !/^\d{1,16}$/.test(value)) return null;
  return Number(value);
}

/** True when the request carries a body at all (a length above 0, or chunks). */
export function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = declaredLength(req);
  return length !== null && length > 0;
}

/**
 * Reads a body up to `limitBytes` (after decompression: a small gzip cannot become a large body),
 * handing each chunk to `inspect`, which may refuse it. A refusal answers at once, while the
 * client may still be sending: what follows is read and dropped (never held), so the connection
 * stays usable and memory does not grow. The bytes are held only once, joined at the end.
 */
export function readBody(
  req: Request,
  limitBytes: number,
  inspect?: (chunk: Buffer) => Error | null,
): Promise<Buffer> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  const decoder = encoding === 'identity' ? undefined : DECODERS[encoding];
  if (encoding !== 'identity' && !decoder)
    return Promise.reject(new BodyNotReadable(MSG.unsupportedEncoding));
  const source: Readable | NodeJS.ReadWriteStream = decoder ? req.pipe(decoder()) : req;
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const finish = (error: Error | null) => {
      if (done) return;
      done = true;
      source.removeListener('data', onData);
      source.removeListener('end', onEnd);
      source.removeListener('error', onError);
      req.removeListener('aborted', onAborted);
      req.removeListener('close', onClose);
      if (!error) return resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total));
      chunks.length = 0;
      dropRest(req, source);
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limitBytes) return finish(new BodyTooLarge());
      const refusal = inspect?.(chunk) ?? null;
      if (refusal) return finish(refusal);
      chunks.push(chunk);
    };
    const onEnd = () => finish(req.complete ? null : new BodyAborted());
    // A decoder's error: the bytes were not what their Content-Encoding said.
    const onError = () =>
      finish(req.aborted ? new BodyAborted() : new BodyNotReadable(MSG.unsupportedEncoding));
    const onAborted = () => finish(new BodyAborted());
    const onClose = () => {
      if (!req.complete) finish(new BodyAborted());
    };
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onError);
    req.once('aborted', onAborted);
    req.once('close', onClose);
  });
}

/** A refused body's rest is read and dropped, never held. */
function dropRest(req: Request, source: unknown): void {
  if (source !== req) {
    req.unpipe();
    (source as NodeJS.ReadWriteStream & { destroy(): void }).destroy();
  }
  req.on('error', () => undefined);
  req.resume();
}
