import type { EmbeddedDatabase } from '@/platform/config/database';
import { runningPostmaster } from './data-dir';
import { placeOf } from './place';
import { answers, EMBEDDED_DIR, STANDARD_PORT } from './server';

export { ELSEWHERE } from './place';
export {
  answers,
  EMBEDDED_DIR,
  type EmbeddedServer,
  runningEmbedded,
  STANDARD_PORT,
  startEmbedded,
} from './server';

/**
 * Whether the embedded PostgreSQL is the one to use (README.md, Quick start): when asked
 * (DATABASE_URL=embedded), or, DATABASE_URL unset, when nothing answers on 127.0.0.1:5432, or
 * what answers there is this folder's own server, started on that port by an earlier command.
 */
export async function embeddedWanted(
  choice: EmbeddedDatabase,
  dir: string = EMBEDDED_DIR,
): Promise<boolean> {
  if (choice !== 'fallback') return choice === 'asked';
  if (!(await answers(STANDARD_PORT))) return true;
  const ours = runningPostmaster(placeOf(dir).files);
  return ours !== null && ours.port === STANDARD_PORT;
}
