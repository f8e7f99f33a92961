import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';
import { csrfMatches, webUser } from './web-context';

/** A 10,000-line CSV of patients is well under this; the API's batch body limit is 16 MiB. */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;

/** Set while a multipart request is read: what to do when its file is refused. */
const ON_REFUSED = Symbol('upload refused');
type UploadRequest = Request & { [ON_REFUSED]?: () => void; uploadError?: string };

/** The form's CSRF token did not come before its file: the file is not read. */
class UploadRefused extends Error {}

const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
  // Called as the file part begins, with the fields before it parsed: the form puts its token first.
  fileFilter: (req, _file, accept) => {
    if (csrfMatches(req)) return accept(null, true);
    (req as UploadRequest)[ON_REFUSED]?.();
    accept(new UploadRefused());
  },
}).single('file');

/**
 * Parses multipart form posts (the batch CSV upload) after the session: a request without a
 * signed-in user is not read at all, and the file only once the CSRF token that precedes it
 * matched (issue 27). A refused request goes on at once with an empty body, so the CSRF check
 * that follows answers 403 while multer discards the rest of the upload. Other requests pass
 * untouched. A refused upload (too big, too many parts) leaves `req.uploadError` for the page.
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
  upload(req, res, (err?: unknown) => {
    delete (req as UploadRequest)[ON_REFUSED];
    if (err instanceof UploadRefused) return goOn();
    if (err instanceof multer.MulterError) {
      (req as UploadRequest).uploadError =
        err.code === 'LIMIT_FILE_SIZE'
          ? `The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB.`
          : 'The upload was not understood; send one CSV file.';
      req.body ??= {};
      return goOn();
    }
    goOn(err);
  });
}
