import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { managerOf, type Tx } from '@/platform/db/database';
import { Location } from './location.entity';

/** The `locations` table: an account's offices (one of them its default). */
@Injectable()
export class LocationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(fields: Partial<Location>, tx?: Tx): Promise<Location> {
    const em = managerOf(this.db, tx);
    return em.save(em.create(Location, fields));
  }

  listByAccount(accountId: string, tx?: Tx): Promise<Location[]> {
    return managerOf(this.db, tx).find(Location, {
      where: { accountId },
      order: { createdAt: 'ASC', code: 'ASC' },
    });
  }

  /** The account's location of this code (another account's is not found). */
  findByCode(accountId: string, code: string, tx?: Tx): Promise<Location | null> {
    return managerOf(this.db, tx).findOne(Location, { where: { accountId, code } });
  }

  /** A location by its code in any account (the admin CLI acts across accounts). */
  findByCodeAnyAccount(code: string, tx?: Tx): Promise<Location | null> {
    return managerOf(this.db, tx).findOne(Location, { where: { code } });
  }

  findById(accountId: string, id: string, tx?: Tx): Promise<Location | null> {
    return managerOf(this.db, tx).findOne(Location, { where: { id, accountId } });
  }

  findDefault(accountId: string, tx?: Tx): Promise<Location | null> {
    return managerOf(this.db, tx).findOne(Location, { where: { accountId, isDefault: true } });
  }

  async update(accountId: string, id: string, changes: Partial<Location>, tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).update(Location, { id, accountId }, changes);
  }
}
