import cluster from 'node:cluster';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp, createHttpAdapter } from './app.setup';
import type { AppConfig } from './platform/config/env';
import { DEMO_EMAIL, DemoSeeder } from './seed/seed';

/** Queues only (ROLE=worker): no HTTP server. */
export async function runWorker(): Promise<void> {
  const ctx = await NestFactory.createApplicationContext(AppModule, { bufferLogs: true });
  ctx.useLogger(ctx.get(Logger));
  ctx.enableShutdownHooks();
  await ctx.init();
  process.stdout.write('Worker started (ROLE=worker).\n');
}

/**
 * The HTTP API (with the queues too when ROLE=all in a single process). `announce`: print the
 * listening line (the cluster's supervisor prints one for all its API processes instead).
 */
export async function runApi(config: AppConfig, { announce }: { announce: boolean }) {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, createHttpAdapter(), {
    bodyParser: false,
    bufferLogs: true,
  });
  configureApp(app);

  let banner: string | null = null;
  let seeded = false;
  if (config.demoSeed) {
    // Safe when several API processes start at once: exactly one creates the account.
    const demo = await app.get(DemoSeeder).seedIfEmpty();
    seeded = demo !== null;
    // A later start: the first key was shown once and is gone; say how to make another.
    banner = demo ? demoBanner(demo, config) : keyAgainLine(config);
  }

  await app.listen(config.port);
  if (announce)
    process.stdout.write(`Listening on ${config.publicUrl} (API docs: ${config.publicUrl}/docs)\n`);
  // Last, after the route log and the listening line, so the one-time key does not scroll away.
  if (banner === null) return;
  // A cluster process hands it to the supervisor (src/cluster.ts), which prints it once every
  // process listens.
  if (cluster.isWorker && process.send)
    process.send({ kind: seeded ? 'demo-banner' : 'demo-key-again', text: banner });
  else process.stdout.write(banner);
}

/**
 * What the first start against an empty database prints about the demo account: outside
 * production, its credentials, once (never logged). In production (SECURITY.md) credentials
 * never reach a console or a log collector: the account is named, and its owner sets them.
 */
export function demoBanner(
  demo: { apiKey: string; email: string; password: string; locationCode: string },
  config: Pick<AppConfig, 'isProduction' | 'publicUrl'>,
): string {
  if (config.isProduction) {
    return (
      [
        '',
        `  Demo account created for ${demo.email} (credentials not shown in production).`,
        `    Set its password:  npm run --silent cli -- users:reset-password --email ${demo.email}`,
        `    Create a key:      npm run --silent cli -- api-keys:create --email ${demo.email}`,
        '',
      ].join('\n') + '\n'
    );
  }
  return (
    [
      '',
      '  Demo account created (shown only this once):',
      `    API key:      ${demo.apiKey}`,
      `    Web login:    ${demo.email} / ${demo.password}`,
      `    Location:     ${demo.locationCode}`,
      `    Try it:       curl -H "Authorization: Api ${demo.apiKey}" ${config.publicUrl}/api/auth/v1/locations/`,
      '',
    ].join('\n') + '\n'
  );
}

/**
 * What a start that finds the database already seeded prints instead of the demo banner: keys
 * are shown once, when created, so the way to get another (docs/api.md, Authentication).
 */
export function keyAgainLine(config: Pick<AppConfig, 'publicUrl'>): string {
  return (
    `  API keys are shown once, when created. Another: npm run --silent cli -- api-keys:create ` +
    `--email ${DEMO_EMAIL} (or a user's e-mail), or the API keys page ${config.publicUrl}/app/api-keys/\n`
  );
}
