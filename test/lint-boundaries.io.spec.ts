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
import { queryPrepared } from '@/platform/db/pg-pool';
export const run = (db: DataSource) => queryPrepared(db, 'SELECT 1');
`;
// DbQueue names its queues' tables through their specs, never itself (issue 42).
const WRITES_A_LEASE =
  'export const sql = (table: string) => `UPDATE ${table} SET lease_job = NULL WHERE id = $1`;\n';
const OTHER_ENTITY_VALUE = `import { Claim } from '@/modules/claims/store/claim.entity';
export const table: unknown = Claim;
`;
const OTHER_ENTITY_TYPE = `import type { Claim } from '@/modules/claims/store/claim.entity';
export const code = (c: Claim): string => c.code;
`;
const THROUGH_THE_DOOR = `import { PatientsService } from '@/modules/patients';
export const service: unknown = PatientsService;
`;
const PAST_THE_DOOR = `import { PatientsService } from '@/modules/patients/domain/patients.service';
export const service: unknown = PatientsService;
`;

const OTHER_MODULES_TABLE = `export const lock = 'SELECT id FROM eligibility_requests WHERE id = $1 FOR UPDATE';
export const erase = (ids: string[]) => ({ text: \`delete from  "mail_messages" WHERE id = ANY($1)\`, ids });
`;
const OWN_TABLE = `export const claim = 'SELECT id FROM claims WHERE id = $1';
export const part = \`INSERT INTO claim_report_parts (id) VALUES ($1)\`;
export const section = 'eligibility_requests';
`;
const SHARED_TABLE = 'export const beat = `UPDATE service_processes SET seen_at = now()`;\n';

const SQL_THE_OLD_WAYS = `import type { DataSource } from 'typeorm';
export const a = (db: DataSource) => db.getRepository('x').createQueryBuilder('x');
export const b = (db: DataSource) => db.query('SELECT 1');
export const c = 'SELECT id FROM t WHERE id = $1';
`;
const SQL_TAG = `import type { DataSource } from 'typeorm';
import { query, sql } from '@/platform/db/sql';
export const a = (db: DataSource, id: string) => query(db, sql\`SELECT id FROM t WHERE id = \${id}\`);
export const price = '$45.50';
export const swap = (t: string) => t.replace(/(a)(b)/, '$2$1');
`;

/** Issue 32's boundaries, as lint enforces them (eslint.config.mjs: boundaries, leaseColumns). */
describe('lint boundaries', () => {
  let results: string[][];

  beforeAll(() => {
    results = lint([
      { file: 'src/modules/patients/domain/patient-links.service.ts', text: REACHES_THE_DATABASE },
      { file: 'src/modules/patients/store/patients.repository.ts', text: REACHES_THE_DATABASE },
      { file: 'src/modules/claims/domain/claims.service.ts', text: WRITES_A_LEASE },
      { file: 'src/modules/claims/store/claims.repository.ts', text: WRITES_A_LEASE },
      { file: 'src/platform/jobs/db-queue.ts', text: WRITES_A_LEASE },
      { file: 'src/modules/patients/domain/patients.service.ts', text: OTHER_ENTITY_VALUE },
      { file: 'src/modules/patients/domain/patients.service.ts', text: OTHER_ENTITY_TYPE },
      { file: 'src/modules/claims/domain/claims.service.ts', text: THROUGH_THE_DOOR },
      { file: 'src/modules/claims/domain/claims.service.ts', text: PAST_THE_DOOR },
      { file: 'src/modules/patients/domain/patient-links.service.ts', text: PAST_THE_DOOR },
      { file: 'src/modules/claims/store/claims.repository.ts', text: OTHER_MODULES_TABLE },
      { file: 'src/modules/claims/store/claims.repository.ts', text: OWN_TABLE },
      { file: 'src/platform/jobs/process-registry.ts', text: OTHER_MODULES_TABLE },
      { file: 'src/platform/jobs/process-registry.ts', text: SHARED_TABLE },
      { file: 'src/modules/claims/domain/claim-x12.spec.ts', text: OTHER_MODULES_TABLE },
      { file: 'src/modules/eligibility/store/probe.repository.ts', text: SQL_THE_OLD_WAYS },
      { file: 'src/modules/eligibility/store/probe.repository.ts', text: SQL_TAG },
      { file: 'src/modules/claims/store/claims.repository.ts', text: SQL_THE_OLD_WAYS },
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

  it("refuses another module's table in SQL text (issue 42), not the module's own nor in specs", () => {
    // Entities name eligibility_requests (eligibility's) and claims (claims'); claim_report_parts
    // and mail_messages' owners come from the entity scan and the list of tables without one.
    expect(results[10]).toEqual(['tables/owner:1', 'tables/owner:2']);
    expect(results[11]).toEqual([]);
    // Shared code names no feature table, only its own (the process registry's).
    expect(results[12]).toEqual(['tables/owner:1', 'tables/owner:2']);
    expect(results[13]).toEqual([]);
    expect(results[14]).toEqual([]);
  });

  it('holds the folders on the SQL tag to it: no query builder, getRepository, .query(text) or $n', () => {
    expect(results[15]).toEqual([
      'sql/one-idiom:2',
      'sql/one-idiom:2',
      'sql/one-idiom:3',
      'sql/one-idiom:4',
    ]);
    // The tag itself, and a dollar amount or a replacement pattern that is not SQL.
    expect(results[16]).toEqual([]);
    // A folder not on the tag yet (its modules move, then join SQL_TAG_FOLDERS).
    expect(results[17]).toEqual([]);
  });
});
