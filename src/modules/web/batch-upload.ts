import type { Readable } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';
import { CsvRefused, NO_FILE } from '@/platform/http/csv-intake';
import { csrfMatches, webUser } from './web-context';

/**
 * The most any page's file may be; each page's intake sets its own limit under it (the batch's
 * and the Schedule's are both 10,001 lines of their longest line, under 10 MiB).
 */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** Set while a multipart request is read: what to do when its file is refused, or begins. */
const ON_REFUSED = Symbol('upload refused');
const ON_FILE = Symbol('upload file');
/** The form's file, as it streams in. */
const FILE = Symbol('uploaded file');
type UploadRequest = Request & {
  [ON_REFUSED]?: () => void;
  [ON_FILE]?: (file: Readable) => void;
  [FILE]?: Readable;
  uploadError?: string;
};

/** The form's CSRF token did not come before its file: the file is not read. */
class UploadRefused extends Error {}

const TOO_BIG = `The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB.`;
const NOT_UNDERSTOOD = 'The upload was not understood; send one CSV file.';

/**
 * Holds nothing: the file's stream is handed to the page, which reads it through its CSV intake
 * (src/platform/http/csv-intake.ts) and stops at the first limit crossed. Multer goes on with
 * the form once the stream has ended (read, or dropped after a refusal).
 */
const handedOn: multer.StorageEngine = {
  _handleFile(req, file, done) {
    const stream = file.stream;
    // Busboy ends a file cut at the size limit as if it were whole: the page must not read it so.
    stream.once('limit', () => stream.destroy(new CsvRefused(TOO_BIG)));
    stream.once('end', () => done(null, {}));
    stream.once('error', (e) => done(e));
    (req as UploadRequest)[ON_FILE]?.(stream);
  },
  _removeFile: (_req, _file, done) => done(null),
};

const upload = multer({
  storage: handedOn,
  limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
  // Called as the file part begins, with the fields before it parsed: the form puts its token first.
  fileFilter: (req, _file, accept) => {
    if (csrfMatches(req)) return accept(null, true);
    (req as UploadRequest)[ON_REFUSED]?.();
    accept(new UploadRefused());
  },
}).single('file');

/**
 * Parses multipart form posts (the batch and Schedule CSV uploads) after the session: a request
 * without a signed-in user is not read at all, and the file only once the CSRF token that
 * precedes it matched (SECURITY.md). A refused request goes on at once with an empty body, so the
 * CSRF check that follows answers 403 while multer discards the rest of the upload. Other
 * requests pass untouched. The fields before the file are parsed; the file is not read here:
 * the request goes on as the file begins, and the page reads it with `uploadedFile`. A refused
 * upload (too big, too many parts) leaves `req.uploadError` for the page, or fails the file's
 * stream when the page has it already.
 */
export function multipartForms(req: Request, res: Response, next: NextFunction): void {
  if (!req.is('multipart/form-data')) return next();
  if (!webUser(req)) {
    req.body = {};
    return next();
  }
  let goneOn = false;
  const goOn = (err?: unknown) => {
    if (goneOn) return;
    goneOn = true;
    next(err);
  };
  (req as UploadRequest)[ON_REFUSED] = () => {
    req.body = {};
    goOn();
  };
  (req as UploadRequest)[ON_FILE] = (file) => {
    (req as UploadRequest)[FILE] = file;
    // A page that answers without reading the file (a refusal before it) lets it drain.
    res.once('close', () => file.resume());
    goOn();
  };
  upload(req, res, (err?: unknown) => {
    const r = req as UploadRequest;
    delete r[ON_REFUSED];
    delete r[ON_FILE];
    if (err instanceof UploadRefused) return goOn();
    const refused =
      err instanceof multer.MulterError
        ? err.code === 'LIMIT_FILE_SIZE'
          ? TOO_BIG
          : NOT_UNDERSTOOD
        : null;
    const file = r[FILE];
    if (goneOn && file) {
      // The page is reading the file: it is told, whatever failed (a part after it, the client).
      if (err && !file.readableEnded)
        file.destroy(err instanceof CsvRefused ? err : new CsvRefused(refused ?? NOT_UNDERSTOOD));
      return;
    }
    if (refused) {
      r.uploadError = refused;
      req.body ??= {};
      return goOn();
    }
    goOn(err);
  });
}

/**
 * The form's file as it streams in, for the page's CSV intake; a refused upload or a form without
 * a file is refused with why.
 */
export function uploadedFile(req: Request): Readable {
  const r = req as UploadRequest;
  if (r.uploadError) throw new CsvRefused(r.uploadError);
  const file = r[FILE];
  if (!file) throw new CsvRefused(NO_FILE);
  return file;
}
