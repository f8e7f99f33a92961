import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { queryOne, sql } from '@/platform/db/sql';
import type { MemberQuery } from '../domain/insurer-connector';

/**
 * `sandbox_searches`: how many times the sandbox was asked about each patient of an account
 * (docs/api.md, The sandbox insurer: `flip_inactive`). The patient is a hash of names, date of
 * birth and member id, never their words.
 */
@Injectable()
export class SandboxSearchesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Counts one more search of `query`'s patient for the account; answers the count, this one included. */
  async count(accountId: string, query: MemberQuery): Promise<number> {
    const key = createHash('sha256')
      .update(
        [query.firstName, query.lastName, query.dob, query.memberId ?? '']
          .map((v) => v.trim().toLowerCase())
          .join('\u0000'),
      )
      .digest('base64url');
    const row = await queryOne<{ searches: number }>(
      this.db,
      sql`INSERT INTO sandbox_searches (account_id, patient_key, searches) VALUES (${accountId}, ${key}, 1)
       ON CONFLICT (account_id, patient_key)
       DO UPDATE SET searches = sandbox_searches.searches + 1, last_at = now()
       RETURNING searches`,
    );
    return row!.searches;
  }
}
