import { randomBytes } from 'node:crypto';
import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { AccountsService } from '@/modules/accounts/domain/accounts.service';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';

export interface TestAccount {
  accountId: string;
  apiKey: string;
  apiKeyId: string;
  locationCode: string;
  email: string;
  password: string;
  /** `{ Authorization: 'Api <key>' }` */
  auth: { Authorization: string };
}

/** A fresh account with its default location and a web user (no API key): its id. */
export async function createAccountId(ctx: INestApplicationContext): Promise<string> {
  return (await createPractice(ctx)).accountId;
}

/** A fresh account (no API key) and its default location, straight through AccountsService. */
export async function createPractice(
  ctx: INestApplicationContext,
): Promise<{ accountId: string; locationId: string; userId: string }> {
  const suffix = randomBytes(4).toString('hex');
  const { account, location, user } = await ctx.get(AccountsService).createAccount({
    name: `Practice ${suffix}`,
    email: `staff-${suffix}@practice.test`,
    password: `pw-${suffix}-secret`,
  });
  return { accountId: account.id, locationId: location.id, userId: user.id };
}

/** A fresh account with its default location, a web user and an API key. */
export async function createAccount(
  app: INestApplication,
  overrides: { name?: string; iframeEnabled?: boolean; frameAncestors?: string[] } = {},
): Promise<TestAccount> {
  const suffix = randomBytes(4).toString('hex');
  const email = `staff-${suffix}@practice.test`;
  const password = `pw-${suffix}-secret`;
  const { account, location } = await app.get(AccountsService).createAccount({
    name: overrides.name ?? `Practice ${suffix}`,
    email,
    password,
    iframeEnabled: overrides.iframeEnabled ?? false,
  });
  // An account enabled for embedding names the vendor's origin, as it must to mint links.
  const frameAncestors =
    overrides.frameAncestors ?? (overrides.iframeEnabled ? ['https://pms.example.test'] : []);
  if (frameAncestors.length > 0)
    await app.get(AccountsService).updateAccount(account.id, { frameAncestors });
  const { key, apiKey } = await app.get(ApiKeysService).create(account.id, 'test key');
  return {
    accountId: account.id,
    apiKey: key,
    apiKeyId: apiKey.id,
    locationCode: location.code,
    email,
    password,
    auth: { Authorization: `Api ${key}` },
  };
}
