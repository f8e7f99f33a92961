import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';

declare const TX: unique symbol;

/** Work handed off once a transaction has committed (docs/architecture.md, Shared idioms). */
type HandOff = () => unknown;

/**
 * A transaction in progress. `Database.transaction` hands it to the service, which passes it on
 * to the repositories it calls; only a repository (`managerOf`) looks inside. So services decide
 * what is atomic, repositories decide how it is stored.
 */
export interface Tx {
  readonly [TX]: true;
  /**
   * Runs `handOff` once this transaction has committed, before `Database.transaction` answers,
   * in the order added; a failing one is logged and the commit stands. None runs after a rollback.
   */
  afterCommit(handOff: HandOff): void;
}

const log = new Logger('AfterCommit');

/** The one implementation of `Tx`: its EntityManager and the hand-offs waiting for its commit. */
class Transaction {
  private handOffs: HandOff[] | null = null;
  private ended = false;

  constructor(readonly manager: EntityManager) {}

  afterCommit(handOff: HandOff): void {
    if (this.ended) throw new Error('afterCommit on a transaction that has ended');
    (this.handOffs ??= []).push(handOff);
  }

  /** The transaction is over (committed or rolled back): answers the hand-offs to run, if any. */
  end(): HandOff[] | null {
    this.ended = true;
    const handOffs = this.handOffs;
    this.handOffs = null;
    return handOffs;
  }
}

/** One after the other, each awaited; one that throws is logged and the others still run. */
async function runHandOffs(handOffs: HandOff[]): Promise<void> {
  for (const handOff of handOffs) {
    try {
      await handOff();
    } catch (e) {
      log.error({ err: (e as Error)?.message ?? String(e) }, 'after-commit hand-off failed');
    }
  }
}

/** Repositories only: the EntityManager of `tx`, or the data source's own manager without one. */
export function managerOf(db: DataSource, tx?: Tx | null): EntityManager {
  return tx ? (tx as unknown as Transaction).manager : db.manager;
}

/**
 * Data-layer code only (`Database.transaction`, DbQueue's own statements): runs `work` in one
 * transaction of `db` (READ COMMITTED), then, once it has committed, the hand-offs its `Tx`
 * collected (`Tx.afterCommit`); after a rollback none runs and the error is thrown on.
 */
export async function transactionOf<T>(db: DataSource, work: (tx: Tx) => Promise<T>): Promise<T> {
  let tx: Transaction | null = null;
  let result: T;
  try {
    result = await db.transaction((manager) => {
      tx = new Transaction(manager);
      return work(tx as unknown as Tx);
    });
  } catch (e) {
    (tx as Transaction | null)?.end();
    throw e;
  }
  const handOffs = (tx as Transaction | null)?.end();
  if (handOffs) await runHandOffs(handOffs);
  return result;
}

/**
 * The one way services reach the database without a repository: to open a transaction (lint
 * keeps `typeorm`, `DataSource` and `pg-pool` out of everything but repositories and DbQueue).
 */
@Injectable()
export class Database {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Runs `work` in one transaction (READ COMMITTED), committed when it resolves; then the
   * hand-offs added with `tx.afterCommit`, before answering. A transaction opened inside
   * another's `work` is a transaction of its own: its hand-offs run at its own commit.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return transactionOf(this.db, work);
  }
}

/**
 * Data-layer code outside Nest's repositories only (DbQueue, which is the repository of every
 * queue's lease columns): the data source behind `database`. Lint keeps it out of feature code.
 */
export function dataSourceOf(database: Database): DataSource {
  return (database as unknown as { db: DataSource }).db;
}
