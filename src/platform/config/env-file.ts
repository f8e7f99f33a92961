import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

type Env = Record<string, string | undefined>;

/**
 * docs/configuration.md: the environment over the `.env` file of the working folder, as the
 * application's configuration (Nest's ConfigModule) reads them, so that what `npm start` and
 * the CLI decide before the application loads (the database: the embedded PostgreSQL or
 * DATABASE_URL's; the migrations) follows the same settings.
 */
export function environment(env: Env = process.env, cwd: string = process.cwd()): Env {
  const file = resolve(cwd, '.env');
  if (!existsSync(file)) return env;
  return { ...parseEnv(readFileSync(file, 'utf8')), ...env };
}
