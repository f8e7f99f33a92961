import { Foundation1763750000000 } from './1763750000000-Foundation';
import { Eligibility1763755000000 } from './1763755000000-Eligibility';
import { PatientsClaims1763760000000 } from './1763760000000-PatientsClaims';
import { Webhooks1763770000000 } from './1763770000000-Webhooks';
import { PatientLinks1763780000000 } from './1763780000000-PatientLinks';
import { WebApp1763800000000 } from './1763800000000-WebApp';

/** Every migration, in order. Listed explicitly so ts (tests, CLI) and js (dist) load the same set. */
export const migrations = [
  Foundation1763750000000,
  Eligibility1763755000000,
  PatientsClaims1763760000000,
  Webhooks1763770000000,
  PatientLinks1763780000000,
  WebApp1763800000000,
];
