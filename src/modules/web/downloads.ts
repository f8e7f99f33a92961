import type { Response } from 'express';

/** A PDF the browser shows (inline), named `filename` when saved. */
export function sendPdf(res: Response, { filename, pdf }: { filename: string; pdf: Buffer }): void {
  res.setHeader('content-type', 'application/pdf');
  res.setHeader('content-disposition', `inline; filename="${filename}"`);
  res.send(pdf);
}

/** Starts a CSV download named `filename` (status 200); the page sends or writes the file. */
export function csvDownload(res: Response, filename: string): Response {
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  return res;
}
