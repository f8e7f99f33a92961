import type { Provider, Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test, TestingModule } from '@nestjs/testing';
import { AppModule } from '@/app.module';
import { configureApp, createHttpAdapter } from '@/app.setup';
import { APP_CONFIG } from '@/platform/config/config.module';
import { AppConfig, loadConfig } from '@/platform/config/env';
import { migrateDatabase } from '@/platform/db/data-source';
import { checkAnswersAgainstOpenApi } from './openapi-responses';
import { resetState } from './state';

// Without AppModule: module medium tests (test/support/module.ts) reset the state too.
export { flushRedisPrefix, resetState } from './state';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Settings layered over test/support/env.ts for this app only. */
  env?: Record<string, string>;
  /** Extra controllers (for example one that throws, to see the 500 answer). */
  controllers?: Type<unknown>[];
  /**
   * Extra providers, for example a fake insurer connector (test/support/fake-connector.ts):
   * the registry discovers it like a real one.
   */
  providers?: Provider[];
  /** Keep rows and jobs from before (restart tests). Default false: a clean state. */
  keepState?: boolean;
  /** Bind to a port (needed when something outside supertest calls the app): true = any free port. */
  listen?: boolean | number;
}

/** Builds the production AppModule with the production HTTP pipeline (configureApp). */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { config, moduleRef } = await compile(options);
  const app = moduleRef.createNestApplication<NestExpressApplication>(createHttpAdapter(), {
    bodyParser: false,
    bufferLogs: true,
  });
  checkAnswersAgainstOpenApi(app, options.controllers);
  configureApp(app);
  if (options.listen !== undefined && options.listen !== false) {
    await app.listen(options.listen === true ? 0 : options.listen, '127.0.0.1');
  } else await app.init();
  return { app, config, close: () => app.close() };
}

export interface TestContext {
  /** The application's providers (`ctx.get(SearchRunner)`), without an HTTP server. */
  ctx: TestingModule;
  config: AppConfig;
  close(): Promise<void>;
}

/**
 * The middle test tier: the production AppModule with its real repositories, database and Redis,
 * but no HTTP server, for specs that call services directly. ROLE defaults to `api`, so no queue
 * worker or maintenance loop runs behind the test's back: the spec drives every step itself.
 */
export async function createTestContext(options: TestAppOptions = {}): Promise<TestContext> {
  const { config, moduleRef } = await compile({ ...options, env: { ROLE: 'api', ...options.env } });
  await moduleRef.init();
  return { ctx: moduleRef, config, close: () => moduleRef.close() };
}

async function compile(
  options: TestAppOptions,
): Promise<{ config: AppConfig; moduleRef: TestingModule }> {
  const config = loadConfig({ ...process.env, ...options.env });
  if (!options.keepState) await resetState(config);
  else await migrateDatabase(config);
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule],
    controllers: options.controllers ?? [],
    providers: options.providers ?? [],
  })
    .overrideProvider(APP_CONFIG)
    .useValue(config)
    .compile();
  return { config, moduleRef };
}

/** A free local port (for an app whose PUBLIC_URL must name its own port). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
