import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { generateCode, isUniqueViolation, withUniqueRetry } from '@/common/codes';
import { NotFoundError, ValidationFailed } from '@/common/errors';
import { hashPassword, verifyPassword } from '@/common/passwords';
import { Account } from './account.entity';
import { Location } from './location.entity';
import { User } from './user.entity';

export interface NewAccount {
  name: string;
  email: string;
  password: string;
  iframeEnabled?: boolean;
  locationTitle?: string;
}

@Injectable()
export class AccountsService {
  private readonly logger = new Logger(AccountsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    @InjectRepository(Location) private readonly locations: Repository<Location>,
    @InjectRepository(User) private readonly users: Repository<User>,
  ) {}

  /** An account with its default location and first user, in one transaction. */
  async createAccount(
    input: NewAccount,
  ): Promise<{ account: Account; location: Location; user: User }> {
    const email = input.email.trim().toLowerCase();
    const passwordHash = await hashPassword(input.password);
    try {
      return await withUniqueRetry(() =>
        this.db.transaction(async (em) => {
          const account = await em.save(
            em.create(Account, { name: input.name, iframeEnabled: input.iframeEnabled ?? false }),
          );
          const location = await em.save(
            em.create(Location, {
              accountId: account.id,
              code: generateCode('LOC'),
              title: input.locationTitle ?? 'Main office',
              status: 'enabled',
              isDefault: true,
            }),
          );
          const user = await em.save(
            em.create(User, { accountId: account.id, email, passwordHash }),
          );
          this.logger.log({ accountId: account.id }, 'account created');
          return { account, location, user };
        }),
      );
    } catch (e) {
      if (isUniqueViolation(e, 'users_email_key')) {
        throw ValidationFailed.field('email', 'A user with this email already exists.');
      }
      throw e;
    }
  }

  async getAccount(id: string): Promise<Account> {
    const account = await this.accounts.findOne({ where: { id } });
    if (!account) throw new NotFoundError(`Account ${id} not found.`);
    return account;
  }

  async updateAccount(
    id: string,
    changes: Partial<Pick<Account, 'iframeEnabled' | 'frameAncestors' | 'name'>>,
  ) {
    await this.accounts.update({ id }, changes);
    return this.getAccount(id);
  }

  countAccounts(): Promise<number> {
    return this.accounts.count();
  }

  findUserByEmail(email: string): Promise<User | null> {
    return this.users.findOne({ where: { email: email.trim().toLowerCase() } });
  }

  /** The user when the password matches; null otherwise (same cost for unknown e-mails). */
  async verifyCredentials(email: string, password: string): Promise<User | null> {
    const user = await this.findUserByEmail(email);
    if (!user) {
      await hashPassword(password); // spend the same time as a real check
      return null;
    }
    return (await verifyPassword(password, user.passwordHash)) ? user : null;
  }

  firstUserOfAccount(accountId: string): Promise<User | null> {
    return this.users.findOne({ where: { accountId }, order: { createdAt: 'ASC' } });
  }

  // Locations -----------------------------------------------------------------------------

  listLocations(accountId: string): Promise<Location[]> {
    return this.locations.find({ where: { accountId }, order: { createdAt: 'ASC', code: 'ASC' } });
  }

  async createLocation(accountId: string, title: string): Promise<Location> {
    return withUniqueRetry(() =>
      this.locations.save(
        this.locations.create({
          accountId,
          title,
          code: generateCode('LOC'),
          status: 'enabled',
          isDefault: false,
        }),
      ),
    );
  }

  async getLocationById(accountId: string, id: string): Promise<Location | null> {
    return this.locations.findOne({ where: { id, accountId } });
  }

  /**
   * The location a request names, or the account's default when `code` is empty. An unknown
   * code (or another account's) is a field error on `location_code`.
   */
  async resolveLocation(
    accountId: string,
    code: string | null | undefined,
    field = 'location_code',
  ): Promise<Location> {
    const location = code
      ? await this.locations.findOne({ where: { accountId, code } })
      : await this.locations.findOne({ where: { accountId, isDefault: true } });
    if (!location) {
      throw ValidationFailed.field(
        field,
        code ? `Location ${code} does not exist.` : 'The account has no default location.',
      );
    }
    return location;
  }
}
