import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { ConfigError, loadConfig } from './config/env';
import { migrateDatabase } from './database/data-source';
import { DemoSeeder } from './database/seed';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw e;
  }

  // Schema first, before any queue worker starts taking jobs.
  const applied = await migrateDatabase(config);
  if (applied > 0) process.stdout.write(`Applied ${applied} database migration(s).\n`);

  if (config.role === 'worker') {
    // Queues only: no HTTP server.
    const ctx = await NestFactory.createApplicationContext(AppModule, { bufferLogs: true });
    ctx.useLogger(ctx.get(Logger));
    ctx.enableShutdownHooks();
    await ctx.init();
    process.stdout.write('Worker started (ROLE=worker).\n');
    return;
  }

  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    bufferLogs: true,
  });
  configureApp(app);

  if (config.demoSeed) {
    const demo = await app.get(DemoSeeder).seedIfEmpty();
    if (demo) {
      // Printed once, on the first start against an empty database; never logged.
      process.stdout.write(
        [
          '',
          '  Demo account created (shown only this once):',
          `    API key:      ${demo.apiKey}`,
          `    Web login:    ${demo.email} / ${demo.password}`,
          `    Location:     ${demo.locationCode}`,
          `    Try it:       curl -H "Authorization: Api ${demo.apiKey}" ${config.publicUrl}/api/auth/v1/locations/`,
          '',
        ].join('\n') + '\n',
      );
    }
  }

  await app.listen(config.port);
  process.stdout.write(`Listening on ${config.publicUrl} (API docs: ${config.publicUrl}/docs)\n`);
}

bootstrap().catch((e: unknown) => {
  process.stderr.write(`Start-up failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
