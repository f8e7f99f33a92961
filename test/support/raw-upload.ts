import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  /** Bytes written before the answer arrived. */
  sentBeforeAnswer: number;
  total: number;
  /** The answer came while the body was still being sent. */
  early: boolean;
}

export interface RawUpload {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** The body's size; it is made of `unit` repeated, framed by `head` and `tail`. */
  total: number;
  head?: string;
  unit?: string;
  tail?: string;
  /** No Content-Length: sent chunked. */
  chunked?: boolean;
}

const CHUNK = 64 * 1024;
const PACED_AFTER = 1024 * 1024;

/**
 * Sends a body of `total` bytes with backpressure, 64 KiB at a time, and stops sending as soon as
 * the answer arrives (so a refusal that comes early costs neither side the rest).
 */
export function rawUpload(base: string, upload: RawUpload): Promise<RawAnswer> {
  const { total, head = '', unit = ' ', tail = '' } = upload;
  const fill = Buffer.from(unit.repeat(Math.ceil(CHUNK / unit.length)).slice(0, CHUNK));
  const url = new URL(upload.path, base);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(url, {
      method: upload.method,
      headers: {
        'Content-Type': 'application/json',
        ...(upload.chunked ? {} : { 'Content-Length': String(total) }),
        ...upload.headers,
      },
    });
    req.on('response', (res) => {
      answered = true;
      const sentBeforeAnswer = sent;
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(parts).toString('utf8'),
          headers: res.headers,
          sentBeforeAnswer,
          total,
          early: sentBeforeAnswer < total,
        });
        req.destroy();
      });
    });
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    const headBytes = Buffer.from(head);
    const tailBytes = Buffer.from(tail);
    const fillerEnd = total - tailBytes.length;
    const write = () => {
      while (!answered && sent < total) {
        let chunk: Buffer;
        if (sent === 0 && headBytes.length > 0) chunk = headBytes;
        else if (sent < fillerEnd)
          chunk = fill.subarray(0, Math.min(fill.length, fillerEnd - sent));
        else chunk = tailBytes;
        sent += chunk.length;
        // Past the first MiB, one chunk each 8 ms (16.6 MB take two seconds more): a server that
        // drops what it does not read drains the socket at once, and an answer that came at once,
        // even from a loaded machine, must still find the body unfinished.
        const next = sent > PACED_AFTER ? () => setTimeout(write, 8) : write;
        if (!req.write(chunk)) return void req.once('drain', next);
        if (sent > PACED_AFTER) return void next();
      }
      if (!answered) req.end();
    };
    write();
  });
}
