import { Command, CommandRunner } from 'nest-commander';
import { CliOptions } from '@/cli/options';
import { InjectConfig } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { AccountsService } from '@/modules/accounts/domain/accounts.service';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { operatorContext } from '@/modules/audit/domain/security-events';
import { ALL_SCOPES, type ApiScope, parseScopeList } from '@/modules/auth/domain/scopes';
import { createValidationPipe } from '@/platform/http/validation/validation-errors';
import { LocationResponse, UpdateLocationDto } from '@/modules/accounts/api/dto/location.dto';
import { describeError, fail, print } from '@/cli/output';
import { passwordFromStdin } from '@/cli/users.commands';

/**
 * Admin commands (docs/deployment.md, Admin CLI) of accounts, API keys and locations. Each prints exactly
 * one JSON line on success.
 */

interface CreateAccountOptions {
  name: string;
  email: string;
  password?: string;
  iframe?: boolean;
  scopes?: ApiScope[];
}

const SCOPES_OPTION = {
  flags: '--scopes <scopes>',
  description: `Comma-separated scopes of the API key (default all): ${ALL_SCOPES.join(',')}`,
};

/** `--scopes`, or a clear error line and exit 1. */
function scopesOption(v: string): ApiScope[] {
  try {
    return parseScopeList(v);
  } catch (e) {
    return fail((e as Error).message);
  }
}

@Command({
  name: 'accounts:create',
  description: 'Create an account with its default location, a user and an API key',
})
@CliOptions(
  { flags: '--name <name>', description: 'Account (practice) name', required: true },
  { flags: '--email <email>', description: 'E-mail of the first web user', required: true },
  {
    flags: '--password <password>',
    description:
      "Development only (refused in production): the first web user's password. Without it the " +
      'password is read from standard input',
  },
  { flags: '--iframe', description: 'Enable embedded sessions for the account', parse: () => true },
  { ...SCOPES_OPTION, parse: scopesOption },
)
export class CreateAccountCommand extends CommandRunner {
  constructor(
    private readonly accounts: AccountsService,
    private readonly apiKeys: ApiKeysService,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    super();
  }

  async run(_params: string[], options: CreateAccountOptions): Promise<void> {
    if (!options.name?.trim()) fail('--name is required');
    if (!options.email?.includes('@')) fail('--email must be an e-mail address');
    // The command line is visible to every user of the machine (process list, shell history).
    if (options.password !== undefined && this.config.isProduction)
      fail('--password is refused when NODE_ENV=production: give the password on standard input');
    const password = options.password ?? (await passwordFromStdin());
    try {
      const { account, location, user } = await this.accounts.createAccount({
        name: options.name.trim(),
        email: options.email,
        password,
        iframeEnabled: Boolean(options.iframe),
      });
      const { key } = await this.apiKeys.create(
        account.id,
        'CLI key',
        options.scopes,
        operatorContext(account.id),
      );
      print({
        account: {
          id: account.id,
          name: account.name,
          iframe_enabled: account.iframeEnabled,
          email: user.email,
        },
        location_code: location.code,
        api_key: key,
      });
    } catch (e) {
      fail(describeError(e));
    }
  }
}

@Command({ name: 'api-keys:create', description: "Create an API key for a user's account" })
@CliOptions(
  { flags: '--email <email>', description: 'E-mail of a user of the account', required: true },
  { flags: '--name <name>', description: 'A name for the key' },
  { ...SCOPES_OPTION, parse: scopesOption },
)
export class CreateApiKeyCommand extends CommandRunner {
  constructor(
    private readonly accounts: AccountsService,
    private readonly apiKeys: ApiKeysService,
  ) {
    super();
  }

  async run(
    _params: string[],
    options: { email: string; name?: string; scopes?: ApiScope[] },
  ): Promise<void> {
    const user = await this.accounts.findUserByEmail(options.email ?? '');
    if (!user) fail(`No user with e-mail ${options.email}`);
    const { key, apiKey } = await this.apiKeys.create(
      user.accountId,
      options.name ?? 'CLI key',
      options.scopes,
      operatorContext(user.accountId),
    );
    print({ api_key: key, id: apiKey.id, prefix: apiKey.prefix, scopes: apiKey.scopes });
  }
}

@Command({
  name: 'api-keys:revoke',
  description: 'Revoke an API key, given the key or its display prefix',
})
@CliOptions({
  flags: '--key <key>',
  description: 'The API key, or its prefix as shown in lists',
  required: true,
})
export class RevokeApiKeyCommand extends CommandRunner {
  constructor(private readonly apiKeys: ApiKeysService) {
    super();
  }

  async run(_params: string[], options: { key: string }): Promise<void> {
    const revoked = await this.apiKeys.revokeByKeyOrPrefix(options.key ?? '');
    if (revoked.length === 0) fail('No active API key matches');
    print({ revoked: revoked.map((k) => ({ id: k.id, prefix: k.prefix })) });
  }
}

@Command({
  name: 'locations:update',
  description:
    "Change a location's provider identity with the fields of PATCH /api/auth/v1/locations/{code}/ (npi, organization_name, tax_id, address, taxonomy_code, rendering_provider)",
})
@CliOptions(
  { flags: '--code <code>', description: 'The location code (LOC…)', required: true },
  { flags: '--json <body>', description: 'The fields to change, as a JSON object', required: true },
)
export class UpdateLocationCommand extends CommandRunner {
  constructor(private readonly accounts: AccountsService) {
    super();
  }

  async run(_params: string[], options: { code: string; json: string }): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse(options.json);
    } catch {
      fail('--json must be a JSON object');
    }
    try {
      // The API's own validation: the same field errors, printed as the error tree.
      const fields = (await createValidationPipe().transform(body, {
        type: 'body',
        metatype: UpdateLocationDto,
      })) as UpdateLocationDto;
      const found = await this.accounts.findLocationByCode(options.code);
      if (!found) fail(`Location ${options.code} not found.`);
      const location = await this.accounts.updateLocation(
        found.accountId,
        options.code,
        fields,
        operatorContext(found.accountId),
      );
      print(LocationResponse.from(location));
    } catch (e) {
      fail(describeError(e));
    }
  }
}
