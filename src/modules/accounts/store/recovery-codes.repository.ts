import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { managerOf, type Tx } from '@/platform/db/database';
import { RecoveryCode } from './recovery-code.entity';

/** The `user_recovery_codes` table: two-factor recovery codes, as keyed hashes, each usable once. */
@Injectable()
export class RecoveryCodesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  countUnused(userId: string, tx?: Tx): Promise<number> {
    return managerOf(this.db, tx).countBy(RecoveryCode, { userId, usedAt: IsNull() });
  }

  async insertMany(userId: string, codeHashes: string[], tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).insert(
      RecoveryCode,
      codeHashes.map((codeHash) => ({ userId, codeHash })),
    );
  }

  async deleteAllOf(userId: string, tx?: Tx): Promise<void> {
    await managerOf(this.db, tx).delete(RecoveryCode, { userId });
  }

  /** Spends the user's unused code of this hash with one conditional UPDATE: whether it did. */
  async spend(userId: string, codeHash: string, tx?: Tx): Promise<boolean> {
    const result = await managerOf(this.db, tx).update(
      RecoveryCode,
      { userId, codeHash, usedAt: IsNull() },
      { usedAt: () => 'now()' },
    );
    return Boolean(result.affected);
  }
}
