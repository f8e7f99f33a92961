import './tracing';
import 'reflect-metadata';
import cluster from 'node:cluster';
import { superviseCluster } from './cluster';
import { chooseDatabase, redisBanner } from './local-services';
import { stopWithParent } from './parent-watch';
import { type AppConfig, ConfigError, loadConfig } from './platform/config/env';

const say = (line: string) => process.stdout.write(`${line}\n`);

/**
 * `npm start`: validates the settings, applies pending migrations, then serves in this process
 * (WEB_CONCURRENCY=1, or ROLE=worker) or supervises a cluster (src/cluster.ts).
 */
async function bootstrap(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw e;
  }

  if (cluster.isPrimary) {
    if (config.stopsWithParent) stopWithParent(say);
    // The database first (README.md, Quick start: the embedded server when there is no other),
    // then the schema, before any queue worker starts taking jobs. A cluster's processes find
    // the chosen DATABASE_URL in the environment they inherit.
    const chosen = await chooseDatabase(config);
    config = chosen.config;
    if (chosen.banner) say(chosen.banner);
    const { migrateDatabase } = await import('./platform/db/data-source');
    const applied = await migrateDatabase(config);
    if (applied > 0) say(`Applied ${applied} database migration(s).`);
    // After the database answered: a database that does not stops start-up with its one line.
    const redis = config.role === 'api' ? null : await redisBanner(config);
    if (redis) say(redis);
    if (config.role !== 'worker' && config.webConcurrency > 1) {
      // An embedded server started here stops after the last process (its keeper would stop it
      // anyway once this process is gone): `npm start` ends with nothing left running.
      return superviseCluster(config, { afterStop: () => chosen.embedded?.stop() });
    }
  }

  // The application is loaded only here, never by the supervisor.
  const { runApi, runWorker } = await import('./serve');
  if (config.role === 'worker') await runWorker();
  else await runApi(config, { announce: cluster.isPrimary });
}

bootstrap().catch((e: unknown) => {
  process.stderr.write(`Start-up failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
