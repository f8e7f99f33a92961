import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountsService } from '@/modules/accounts/domain/accounts.service';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';

export const DEMO_EMAIL = 'demo@vision.localhost';

export interface DemoCredentials {
  accountId: string;
  email: string;
  password: string;
  apiKey: string;
  locationCode: string;
}

/** On an empty database, creates the demo account (docs/configuration.md, DEMO_SEED). Safe with several processes. */
@Injectable()
export class DemoSeeder {
  private readonly logger = new Logger(DemoSeeder.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly accounts: AccountsService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async seedIfEmpty(): Promise<DemoCredentials | null> {
    return this.db.transaction(async (em) => {
      // Transaction-scoped lock: a second process waits, then finds the account already there.
      await em.query('SELECT pg_advisory_xact_lock(7431002)');
      const [{ count }] = await em.query('SELECT count(*)::int AS count FROM accounts');
      if (count > 0) return null;
      const password = randomPassword();
      const { account, location } = await this.accounts.createAccount({
        name: 'Demo Optical',
        email: DEMO_EMAIL,
        password,
        iframeEnabled: true,
        locationTitle: 'Demo Optical — Main Street',
      });
      const { key } = await this.apiKeys.create(account.id, 'Demo key');
      this.logger.log({ accountId: account.id }, 'demo account seeded');
      return {
        accountId: account.id,
        email: DEMO_EMAIL,
        password,
        apiKey: key,
        locationCode: location.code,
      };
    });
  }
}

function randomPassword(): string {
  // 12 characters from an unambiguous alphabet: easy to type from the console.
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from(randomBytes(12), (b) => alphabet[b % alphabet.length]).join('');
}
