import { Foundation1763750000000 } from './1763750000000-Foundation';

/** Every migration, in order. Listed explicitly so ts (tests, CLI) and js (dist) load the same set. */
export const migrations = [Foundation1763750000000];
