import { useDatabaseUrl } from './platform/config/database';
import { type AppConfig, loadConfig } from './platform/config/env';
import {
  answers,
  embeddedWanted,
  type EmbeddedServer,
  STANDARD_PORT,
  startEmbedded,
} from './platform/db/embedded';

/** The database `npm start` and the CLI run on, and the embedded server when it is that one. */
export interface ChosenDatabase {
  config: AppConfig;
  /** Null: DATABASE_URL's server (or the default one on 127.0.0.1:5432). */
  embedded: EmbeddedServer | null;
  /** The banner's line about the embedded server (null without one). */
  banner: string | null;
}

/**
 * README.md, Quick start: with DATABASE_URL=embedded, or unset outside production while nothing
 * answers on 127.0.0.1:5432, runs on the embedded PostgreSQL (var/postgres) and sets DATABASE_URL
 * so the cluster's processes use it too. A configured DATABASE_URL is used as it is.
 */
export async function chooseDatabase(
  config: AppConfig,
  by = 'the service',
): Promise<ChosenDatabase> {
  const choice = config.embeddedDatabase;
  if (!(await embeddedWanted(choice))) return { config, embedded: null, banner: null };
  // Never the service's own port (it binds that once the database is up) nor Redis's.
  const embedded = await startEmbedded(undefined, [config.port, redisPort(config)]);
  useDatabaseUrl(embedded.url(databaseName(config.databaseUrl)));
  // As root, another folder when the server's user cannot reach var/postgres (README.md, Quick start).
  const moved = embedded.moved ? `, ${embedded.moved}` : '';
  const where = `on 127.0.0.1:${embedded.port}, data in ${embedded.dir}${moved}`;
  const why =
    choice === 'asked'
      ? 'DATABASE_URL=embedded'
      : `DATABASE_URL unset and nothing answered on 127.0.0.1:${STANDARD_PORT}`;
  const banner = embedded.owned
    ? `Database: embedded PostgreSQL ${embedded.version} ${where} (${why}); it stops with ${by}.`
    : `Database: the embedded PostgreSQL ${embedded.version} already running ${where} (pid ${embedded.pid}).`;
  return { config: loadConfig(), embedded, banner };
}

/**
 * The banner's line when Redis does not answer (null when it does): the service runs on
 * PostgreSQL alone meanwhile (docs/configuration.md: RATE_LIMIT_FALLBACK_PER_MINUTE).
 */
export async function redisBanner(config: AppConfig): Promise<string | null> {
  const url = new URL(config.redisUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
  const port = redisPort(config);
  if (await answers(port, host)) return null;
  return (
    `Redis: nothing answers at ${host}:${port}; running on PostgreSQL alone until it does ` +
    '(work runs in the process that accepted it, rate limits count per process).'
  );
}

function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1)) || 'vision';
}

function redisPort(config: AppConfig): number {
  return Number(new URL(config.redisUrl).port || 6379);
}
