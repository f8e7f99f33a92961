import { migration } from './migration';

/** ERROR_DETAILS as it stood when this migration was written (a migration never changes). */
const ERROR_DETAILS: Record<string, string> = {
  insurer_problem:
    'The insurer could not be asked: it was unavailable, refused the practice set-up, or is not ' +
    'connected to this service. Try again later, or check the insurer settings.',
  unexpected_error:
    'The check failed because of an unexpected error on our side (it was logged). Try again.',
};

const COLUMNS = ['body_v1', 'body_v2'] as const;
/** The head every stored body starts with (renderResult and purgedBody): uid, status, error code. */
const HEAD = String.raw`^(\{"request_uid":"[^"]*","status":"[a-z_]+","error_code":`;

/**
 * docs/api.md, Errors put `error_detail` beside `error_code` in every eligibility answer. The bodies
 * stored before it (rendered once, served as stored) lack the key, and docs/api.md, Conventions says an unset
 * field is `null`, never omitted: each stored head gets its `error_detail`, the words of
 * ERROR_DETAILS for an `error` and null otherwise. Only the head is touched (the pattern is
 * anchored at the body's start), and a body that already has the key does not match.
 */
export const ErrorDetailInStoredBodies1795490000000 = migration(
  'ErrorDetailInStoredBodies1795490000000',
  {
    async up(q) {
      for (const column of COLUMNS) {
        await q.query(
          `UPDATE eligibility_requests
            SET ${column} = regexp_replace(${column}, $1, '\\1\\2,"error_detail":null\\3')
          WHERE ${column} ~ $1`,
          [`${HEAD}null)()(,"results":)`],
        );
        for (const [code, words] of Object.entries(ERROR_DETAILS)) {
          await q.query(
            `UPDATE eligibility_requests
              SET ${column} = regexp_replace(${column}, $1, '\\1\\2,"error_detail":' || $2 || '\\3')
            WHERE ${column} ~ $1`,
            [`${HEAD})("${code}")(,"results":)`, JSON.stringify(words)],
          );
        }
      }
    },

    async down(q) {
      for (const column of COLUMNS) {
        await q.query(
          `UPDATE eligibility_requests
            SET ${column} = regexp_replace(${column}, $1, '\\1\\2')
          WHERE ${column} ~ $1`,
          [
            String.raw`^(\{"request_uid":"[^"]*","status":"[a-z_]+","error_code":(?:null|"[a-z_]+"))(?:,"error_detail":(?:null|"[^"\\]*"))(,"results":)`,
          ],
        );
      }
    },
  },
);
