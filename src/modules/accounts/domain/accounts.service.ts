import { Injectable, Logger } from '@nestjs/common';
import { generateCode, withUniqueRetry } from '@/platform/kernel/codes';
import { NotFoundError, ValidationFailed } from '@/platform/kernel/errors';
import {
  hashPassword,
  needsRehash,
  PasswordHashBusy,
  verifyPassword,
} from '@/platform/kernel/passwords';
import { Database } from '@/platform/db/database';
import { type AuditContext, AuditService, securityEvent } from '@/modules/audit';
import { NpiRegistry } from './npi-registry';
import { passwordProblem } from './password-rule';
import type { Account } from '../store/account.entity';
import { AccountsRepository } from '../store/accounts.repository';
import { DEFAULT_TAXONOMY_CODE, type Location } from '../store/location.entity';
import { LocationsRepository } from '../store/locations.repository';
import type { User } from '../store/user.entity';
import { isEmailTaken, UsersRepository } from '../store/users.repository';
import {
  addressColumns,
  checkRenderingProvider,
  type LocationFields,
  locationAddress,
  organisationNpiError,
  renderingColumns,
} from './location-fields';

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
    private readonly database: Database,
    private readonly accounts: AccountsRepository,
    private readonly locations: LocationsRepository,
    private readonly users: UsersRepository,
    private readonly npiRegistry: NpiRegistry,
    private readonly audit: AuditService,
  ) {}

  /** An account with its default location and first user, in one transaction. */
  async createAccount(
    input: NewAccount,
  ): Promise<{ account: Account; location: Location; user: User }> {
    const email = input.email.trim().toLowerCase();
    const problem = passwordProblem(input.password);
    if (problem) throw ValidationFailed.field('password', problem);
    // An operator's command (or the demo seed): it waits for a hashing slot rather than fail.
    const passwordHash = await hashPassword(input.password, 'wait');
    try {
      return await withUniqueRetry(() =>
        this.database.transaction(async (tx) => {
          const account = await this.accounts.insert(
            { name: input.name, iframeEnabled: input.iframeEnabled ?? false },
            tx,
          );
          const location = await this.locations.insert(
            {
              accountId: account.id,
              code: generateCode('LOC'),
              title: input.locationTitle ?? 'Main office',
              status: 'enabled',
              isDefault: true,
            },
            tx,
          );
          const user = await this.users.insert(
            // The account's first user administers it (SECURITY.md).
            {
              accountId: account.id,
              email,
              role: 'admin',
              passwordHash,
              passwordChangedAt: new Date(),
            },
            tx,
          );
          this.logger.log({ accountId: account.id }, 'account created');
          return { account, location, user };
        }),
      );
    } catch (e) {
      if (isEmailTaken(e)) {
        throw ValidationFailed.field('email', 'A user with this email already exists.');
      }
      throw e;
    }
  }

  async getAccount(id: string): Promise<Account> {
    const account = await this.accounts.findById(id);
    if (!account) throw new NotFoundError(`Account ${id} not found.`);
    return account;
  }

  async updateAccount(
    id: string,
    changes: Partial<Pick<Account, 'iframeEnabled' | 'frameAncestors' | 'name'>>,
  ) {
    await this.accounts.update(id, changes);
    return this.getAccount(id);
  }

  countAccounts(): Promise<number> {
    return this.accounts.count();
  }

  findUserByEmail(email: string): Promise<User | null> {
    return this.users.findByEmail(email.trim().toLowerCase());
  }

  findUserById(id: string): Promise<User | null> {
    return this.users.findById(id);
  }

  /**
   * The user when the password matches; null otherwise (same cost for unknown e-mails, invited
   * users without a password yet, and disabled users: a disabled user cannot sign in).
   */
  async verifyCredentials(email: string, password: string): Promise<User | null> {
    const user = await this.findUserByEmail(email);
    if (!user?.passwordHash) {
      await hashPassword(password); // spend the same time as a real check
      return null;
    }
    if (!(await verifyPassword(password, user.passwordHash)) || user.disabledAt) return null;
    // A hash made at an older cost is made again at today's, now that the password is known.
    if (needsRehash(user.passwordHash)) {
      // Best effort: a full hashing gate must not refuse a password that was just found right.
      const rehashed = await hashPassword(password).catch((e: unknown) => {
        if (e instanceof PasswordHashBusy) return null;
        throw e;
      });
      if (rehashed) {
        user.passwordHash = rehashed;
        await this.users.updatePasswordHash(user.id, rehashed);
      }
    }
    return user;
  }

  firstUserOfAccount(accountId: string): Promise<User | null> {
    return this.users.firstOfAccount(accountId);
  }

  // Locations -----------------------------------------------------------------------------

  /** docs/api.md, Claims: a rendering provider's NPI must not be an organisation's, as the registry says. */
  private async checkRegistry(npi: string | undefined): Promise<void> {
    if (npi && (await this.npiRegistry.entityOf(npi)) === 'organization')
      throw organisationNpiError();
  }

  listLocations(accountId: string): Promise<Location[]> {
    return this.locations.listByAccount(accountId);
  }

  /**
   * `by`: who adds it (an API key, a web user, the operator), for the audit trail: a location's
   * NPI and tax id are what its claims are paid to.
   */
  async createLocation(
    accountId: string,
    fields: LocationFields & { title: string },
    by?: AuditContext,
  ): Promise<Location> {
    checkRenderingProvider(fields.npi, fields.rendering_provider?.npi);
    await this.checkRegistry(fields.rendering_provider?.npi);
    const location = await withUniqueRetry(() =>
      this.locations.insert({
        accountId,
        title: fields.title,
        code: generateCode('LOC'),
        status: 'enabled',
        isDefault: false,
        npi: fields.npi ?? null,
        organizationName: fields.organization_name ?? null,
        taxId: fields.tax_id ?? null,
        ...addressColumns(fields.address),
        taxonomyCode: fields.taxonomy_code?.toUpperCase() ?? DEFAULT_TAXONOMY_CODE,
        ...renderingColumns(fields.rendering_provider),
        timeZone: fields.time_zone ?? null,
      }),
    );
    if (by) await this.audit.record(securityEvent(by, 'location', 'create', location.code));
    return location;
  }

  /** Changes the fields given; another account's location is answered as a missing one. */
  async updateLocation(
    accountId: string,
    code: string,
    fields: LocationFields,
    by?: AuditContext,
  ): Promise<Location> {
    const location = await this.locations.findByCode(accountId, code);
    if (!location) throw new NotFoundError(`Location ${code} not found.`);
    if (fields.title !== undefined) location.title = fields.title;
    if (fields.npi !== undefined) location.npi = fields.npi;
    if (fields.organization_name !== undefined)
      location.organizationName = fields.organization_name;
    if (fields.tax_id !== undefined) location.taxId = fields.tax_id;
    if (fields.address !== undefined) Object.assign(location, addressColumns(fields.address));
    if (fields.taxonomy_code !== undefined)
      location.taxonomyCode = fields.taxonomy_code.toUpperCase();
    if (fields.rendering_provider !== undefined)
      Object.assign(location, renderingColumns(fields.rendering_provider));
    if (fields.time_zone !== undefined) location.timeZone = fields.time_zone;
    checkRenderingProvider(location.npi, location.renderingNpi);
    if (fields.rendering_provider) await this.checkRegistry(fields.rendering_provider.npi);
    await this.locations.update(accountId, location.id, {
      title: location.title,
      npi: location.npi,
      organizationName: location.organizationName,
      taxId: location.taxId,
      taxonomyCode: location.taxonomyCode,
      renderingNpi: location.renderingNpi,
      renderingFirstName: location.renderingFirstName,
      renderingLastName: location.renderingLastName,
      renderingTaxonomyCode: location.renderingTaxonomyCode,
      timeZone: location.timeZone,
      ...addressColumns(locationAddress(location)),
    });
    if (by) await this.audit.record(securityEvent(by, 'location', 'update', location.code));
    this.logger.log({ accountId, location: code }, 'location updated');
    return location;
  }

  /** A location by its code alone, for the admin CLI (operators act across accounts). */
  findLocationByCode(code: string): Promise<Location | null> {
    return this.locations.findByCodeAnyAccount(code);
  }

  async getLocationById(accountId: string, id: string): Promise<Location | null> {
    return this.locations.findById(accountId, id);
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
      ? await this.locations.findByCode(accountId, code)
      : await this.locations.findDefault(accountId);
    if (!location) {
      throw ValidationFailed.field(
        field,
        code ? `Location ${code} does not exist.` : 'The account has no default location.',
      );
    }
    return location;
  }
}
