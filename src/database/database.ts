import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { pgQueryable, type Queryable } from './pg-pool';

declare const TX: unique symbol;

/**
 * A transaction in progress. `Database.transaction` hands it to the service, which passes it on
 * to the repositories it calls; only a repository (`managerOf`) looks inside. So services decide
 * what is atomic, repositories decide how it is stored.
 */
export interface Tx {
  readonly [TX]: true;
}

/** Repositories only: the EntityManager of `tx`, or the data source's own manager without one. */
export function managerOf(db: DataSource, tx?: Tx | null): EntityManager {
  return tx ? (tx as unknown as EntityManager) : db.manager;
}

/** Repositories only: `tx`'s manager, or the driver's pool as prepared statements without one. */
export function queryableOf(db: DataSource, tx?: Tx | null): Queryable {
  return tx ? (tx as unknown as EntityManager) : pgQueryable(db);
}

/** Repositories only: a manager some library code handed over, as a transaction to pass on. */
export function asTx(manager: EntityManager): Tx {
  return manager as unknown as Tx;
}

/**
 * The one way services reach the database without a repository: to open a transaction.
 * Everything else (every statement, the pg pool) lives in the repositories (`*.repository.ts`)
 * and in DbQueue; lint keeps `typeorm`, `DataSource` and `pg-pool` out of the other files.
 */
@Injectable()
export class Database {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Runs `work` in one transaction (READ COMMITTED), committed when it resolves. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction((manager) => work(asTx(manager)));
  }
}

/**
 * Data-layer code outside Nest's repositories only (DbQueue, which is the repository of every
 * queue's lease columns): the data source behind `database`. Lint keeps it out of feature code.
 */
export function dataSourceOf(database: Database): DataSource {
  return (database as unknown as { db: DataSource }).db;
}
