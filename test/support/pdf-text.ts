import { spawn } from 'node:child_process';
import type { Response } from 'supertest';

const SCRIPT = `
const { PDFParse } = require('pdf-parse');
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', async () => {
  const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
  try {
    const result = await parser.getText();
    process.stdout.write(JSON.stringify({ text: result.text, pages: result.total }));
  } finally {
    await parser.destroy();
  }
});
`;

/**
 * The text of a PDF and its page count, extracted with pdf-parse (pdf.js). It runs in a plain
 * node process: pdf.js loads its worker with a dynamic import, which Jest's module VM refuses.
 */
export function pdfText(pdf: Buffer): Promise<{ text: string; pages: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', SCRIPT], { cwd: process.cwd() });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0)
        return reject(
          new Error(`pdf-parse failed: ${Buffer.concat(err).toString().slice(0, 500)}`),
        );
      resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as { text: string; pages: number });
    });
    child.stdin.end(pdf);
  });
}

/** A supertest parser keeping the body as bytes: `.buffer(true).parse(asBytes)` (a PDF, or JSON). */
export function asBytes(res: Response, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}
