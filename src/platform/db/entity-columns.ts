import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { sql, type Sql } from './sql';

const lists = new Map<string, Sql>();

/**
 * The select list of `entity`'s columns on `alias`, each named as its property
 * (`d.plan_name AS "planName"`), so `query<Entity>` answers rows shaped as TypeORM loads them
 * (`date` columns as `YYYY-MM-DD` text). `only` keeps those properties; cached per entity.
 */
export function entityColumns<T extends ObjectLiteral>(
  db: DataSource,
  entity: EntityTarget<T>,
  alias: string,
  only?: readonly (keyof T & string)[],
): Sql {
  const metadata = db.getMetadata(entity);
  const key = `${metadata.name}:${alias}:${only?.join(',') ?? ''}`;
  let list = lists.get(key);
  if (!list) {
    // As TypeORM loads an entity: no relation's own join column (a virtual one), none kept out
    // of selects; a column a relation shares (ClaimServiceLine.claimId) is the entity's own.
    const columns = metadata.columns.filter(
      (c) =>
        !c.isVirtual && c.isSelect && (!only || only.includes(c.propertyPath as keyof T & string)),
    );
    list = sql.raw(
      columns
        .map((c) => {
          const column = `${alias}.${c.databaseName}${c.type === 'date' ? '::text' : ''}`;
          return `${column} AS "${c.propertyPath}"`;
        })
        .join(', '),
    );
    lists.set(key, list);
  }
  return list;
}
