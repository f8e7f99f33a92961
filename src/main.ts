import 'reflect-metadata';
import cluster from 'node:cluster';
import { superviseCluster } from './cluster';
import { type AppConfig, ConfigError, loadConfig } from './platform/config/env';

/**
 * `npm start`. Validates the settings and applies pending migrations, then either runs the
 * service in this process (WEB_CONCURRENCY=1, or ROLE=worker) or becomes the supervisor of a
 * cluster of WEB_CONCURRENCY processes with its ROLE (`all`: each serves the API and runs the
 * queues; `api`: API only; see src/cluster.ts). A process of the cluster skips straight to its role.
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
    // Schema first, before any queue worker starts taking jobs.
    const { migrateDatabase } = await import('./platform/db/data-source');
    const applied = await migrateDatabase(config);
    if (applied > 0) process.stdout.write(`Applied ${applied} database migration(s).\n`);
    if (config.role !== 'worker' && config.webConcurrency > 1) return superviseCluster(config);
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
