import type { Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { checkerFor } from './openapi';

/**
 * Every answer the e2e tests receive from /api/* and /health/* is checked against the OpenAPI
 * document: its operation, its status and (for JSON) its body must be documented. Problems are
 * collected here and fail the test that caused them (openapi-setup.ts), so a new endpoint or
 * field that drifts from its documentation fails CI.
 */

const violations: string[] = [];
let checked = 0;

/** How many answers were checked so far (lets a test see that the check is installed). */
export function answersChecked(): number {
  return checked;
}
const MAX_CAPTURE = 8 * 1024 * 1024;

/** The problems found since the last call, and forgets them. */
export function takeViolations(): string[] {
  return violations.splice(0, violations.length);
}

/**
 * Installs the check as the first middleware of the app. Routes of test-only controllers are
 * not part of the contract and are left alone.
 */
export function checkAnswersAgainstOpenApi(
  app: NestExpressApplication,
  testControllers: Type<unknown>[] = [],
): void {
  const skipped = testControllers.map(
    (c) => `/${String(Reflect.getMetadata('path', c) ?? '').replace(/^\/+|\/+$/g, '')}`,
  );
  app.use((req: Request, res: Response, next: NextFunction) => {
    const url = req.originalUrl;
    const path = url.split('?')[0];
    if (
      !(path.startsWith('/api/') || path.startsWith('/health/')) ||
      // Express answers these for every GET route by itself; the document lists GET.
      req.method === 'HEAD' ||
      req.method === 'OPTIONS' ||
      skipped.some((p) => path === p || path.startsWith(`${p}/`))
    )
      return next();
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buf = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(
            chunk as string,
            (typeof encoding === 'string' ? encoding : 'utf8') as BufferEncoding,
          );
      size += buf.length;
      if (size <= MAX_CAPTURE) chunks.push(buf);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.write = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return write(...args);
    }) as Response['write'];
    res.end = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return end(...args);
    }) as Response['end'];
    res.once('finish', () => {
      if (size > MAX_CAPTURE) return;
      const contentType = res.getHeader('content-type');
      checked += 1;
      let problems: string[];
      try {
        problems = checkerFor(app).check({
          method: req.method,
          url,
          status: res.statusCode,
          contentType: contentType === undefined ? undefined : String(contentType),
          headers: res.getHeaders(),
          body: Buffer.concat(chunks).toString('utf8'),
        });
      } catch (e) {
        problems = [`the document could not be used: ${(e as Error).message}`];
      }
      for (const p of problems) violations.push(`${req.method} ${path} → ${res.statusCode}: ${p}`);
    });
    next();
  });
}
