import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What a migration does, and how it is undone. */
export interface MigrationSteps {
  up(q: QueryRunner): Promise<void>;
  down(q: QueryRunner): Promise<void>;
}

/**
 * A migration class for TypeORM, named once: `name` must end in the migration's 13-digit
 * timestamp (TypeORM orders and records migrations by it), and is the name recorded in
 * `typeorm_migrations`.
 */
export function migration(name: string, steps: MigrationSteps): new () => MigrationInterface {
  if (!/\d{13}$/.test(name)) throw new Error(`Migration ${name} does not end in its timestamp.`);
  return class implements MigrationInterface {
    readonly name = name;
    up(q: QueryRunner): Promise<void> {
      return steps.up(q);
    }
    down(q: QueryRunner): Promise<void> {
      return steps.down(q);
    }
  };
}
