import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { describeError, fail } from '@/cli/output';
import { chooseDatabase } from '@/local-services';
import { loadConfig } from '@/platform/config/env';
import { migrateDatabase } from '@/platform/db/data-source';

/**
 * Admin commands (docs/deployment.md, Admin CLI; src/cli/). Each prints exactly one JSON line on success.
 * README.md, Quick start: the embedded PostgreSQL when there is no other (the running service's,
 * or one started for this command and stopped after it). Its line goes to standard error:
 * standard output carries the command's JSON line alone. The commands' application is loaded
 * after the choice, since loading it reads the configuration.
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
