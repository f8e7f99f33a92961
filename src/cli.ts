import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { describeError, fail } from '@/cli/output';
import { chooseDatabase } from '@/local-services';
import { loadConfig } from '@/platform/config/env';
import { migrateDatabase } from '@/platform/db/data-source';

/**
 * Admin commands (docs/deployment.md, Admin CLI), one JSON line on success. The embedded
 * PostgreSQL's line goes to standard error; the commands load after the database is chosen,
 * since loading them reads the configuration.
 */
async function main(): Promise<void> {
  const { config, embedded, banner } = await chooseDatabase(loadConfig(), 'this command');
  if (banner) process.stderr.write(`${banner}\n`);
  await migrateDatabase(config);
  const { CliModule } = await import('./cli/cli.module');
  await CommandFactory.run(CliModule, { logger: false, errorHandler: (e) => fail(e.message) });
  await embedded?.stop();
}

main().catch((e: unknown) => fail(describeError(e)));
