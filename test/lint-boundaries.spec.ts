import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(__dirname, '..');

/** Lints each text as the named file, with the repository's own lint configuration. */
function lint(cases: { file: string; text: string }[]): string[][] {
  const input = JSON.stringify(
    cases.map((c) => ({ filePath: resolve(root, c.file), text: c.text })),
  );
  const out = execFileSync(process.execPath, [resolve(root, 'test/support/lint-probe.mjs')], {
    cwd: root,
    input,
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[][];
}

const REACHES_THE_DATABASE = `import { DataSource } from 'typeorm';
import { queryPrepared } from '@/database/pg-pool';
export const run = (db: DataSource) => queryPrepared(db, 'SELECT 1');
`;
const WRITES_A_LEASE = 'export const sql = `UPDATE claims SET lease_job = NULL WHERE id = $1`;\n';
const OTHER_ENTITY_VALUE = `import { Claim } from '@/modules/claims/claim.entity';
export const table: unknown = Claim;
`;
const OTHER_ENTITY_TYPE = `import type { Claim } from '@/modules/claims/claim.entity';
export const code = (c: Claim): string => c.code;
`;
const THROUGH_THE_DOOR = `import { PatientsService } from '@/modules/patients';
export const service: unknown = PatientsService;
`;
const PAST_THE_DOOR = `import { PatientsService } from '@/modules/patients/patients.service';
export const service: unknown = PatientsService;
`;

/** Issue 32's boundaries, as lint enforces them (eslint.config.mjs: boundaries, leaseColumns). */
describe('lint boundaries', () => {
  let results: string[][];

  beforeAll(() => {
    results = lint([
      { file: 'src/modules/patients/patient-links.service.ts', text: REACHES_THE_DATABASE },
      { file: 'src/modules/patients/patients.repository.ts', text: REACHES_THE_DATABASE },
      { file: 'src/modules/claims/claims.service.ts', text: WRITES_A_LEASE },
      { file: 'src/modules/claims/claims.repository.ts', text: WRITES_A_LEASE },
      { file: 'src/common/queue/db-queue.ts', text: WRITES_A_LEASE },
      { file: 'src/modules/patients/patients.service.ts', text: OTHER_ENTITY_VALUE },
      { file: 'src/modules/patients/patients.service.ts', text: OTHER_ENTITY_TYPE },
      { file: 'src/modules/claims/claims.service.ts', text: THROUGH_THE_DOOR },
      { file: 'src/modules/claims/claims.service.ts', text: PAST_THE_DOOR },
      { file: 'src/modules/patients/patient-links.service.ts', text: PAST_THE_DOOR },
    ]);
  }, 120_000);

  it('keeps typeorm and the pg pool out of feature code, and lets repositories use them', () => {
    expect(results[0]).toEqual([
      '@typescript-eslint/no-restricted-imports:1',
      '@typescript-eslint/no-restricted-imports:2',
    ]);
    expect(results[1]).toEqual([]);
  });

  it('leaves the lease columns to DbQueue, in repositories too', () => {
    expect(results[2]).toEqual(['no-restricted-syntax:1']);
    expect(results[3]).toEqual(['no-restricted-syntax:1']);
    expect(results[4]).toEqual([]);
  });

  it("lets feature code name another module's entity as a type only", () => {
    expect(results[5]).toEqual([
      '@typescript-eslint/no-restricted-imports:1',
      'no-restricted-imports:1',
    ]);
    // A type is allowed by the entity rule; only the door's refusal remains.
    expect(results[6]).toEqual(['no-restricted-imports:1']);
  });

  it("refuses an import past another module's door, not one through it or inside the module", () => {
    expect(results[7]).toEqual([]);
    expect(results[8]).toEqual(['no-restricted-imports:1']);
    expect(results[9]).toEqual([]);
  });
});
