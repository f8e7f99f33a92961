import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';

/** A 10,000-line CSV of patients is well under this; the API's batch body limit is 16 MiB. */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;

const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
}).single('file');

/**
 * Parses multipart form posts (the batch CSV upload) before the CSRF check, which reads the
 * token from the body like every other form. Other requests pass untouched. A refused upload
 * (too big, too many parts) leaves `req.uploadError` for the page to show.
 */
export function multipartForms(req: Request, res: Response, next: NextFunction): void {
  if (!req.is('multipart/form-data')) return next();
  upload(req, res, (err?: unknown) => {
    if (err instanceof multer.MulterError) {
      (req as Request & { uploadError?: string }).uploadError =
        err.code === 'LIMIT_FILE_SIZE'
          ? `The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB.`
          : 'The upload was not understood; send one CSV file.';
      req.body ??= {};
      return next();
    }
    next(err);
  });
}
