import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { managerOf, type Tx } from '@/platform/db/database';
import { Account } from './account.entity';

/** The `accounts` table: the practices the service serves. */
@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(fields: { name: string; iframeEnabled: boolean }, tx?: Tx): Promise<Account> {
    const em = managerOf(this.db, tx);
    return em.save(em.create(Account, fields));
  }

  findById(id: string, tx?: Tx): Promise<Account | null> {
    return managerOf(this.db, tx).findOne(Account, { where: { id } });
  }

  /** Like `findById`, but a missing account is TypeORM's EntityNotFoundError. */
  findByIdOrFail(id: string, tx?: Tx): Promise<Account> {
    return managerOf(this.db, tx).findOneByOrFail(Account, { id });
  }

  async update(
    id: string,
    changes: Partial<
      Pick<Account, 'iframeEnabled' | 'frameAncestors' | 'name' | 'requireTwoFactor'>
    >,
    tx?: Tx,
  ): Promise<void> {
    await managerOf(this.db, tx).update(Account, { id }, changes);
  }

  count(tx?: Tx): Promise<number> {
    return managerOf(this.db, tx).count(Account);
  }
}
