import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BullModule } from '@nestjs/bull';
import type { Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { Test, TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QueueModule } from '@/platform/jobs/queue.module';
import { type Hook, OPEN_HOOKS } from '@/platform/kernel/hooks';
import { HooksModule } from '@/platform/kernel/hooks.module';
import { APP_CONFIG, AppConfigModule } from '@/platform/config/config.module';
import { AppConfig, loadConfig } from '@/platform/config/env';
import { buildDataSourceOptions } from '@/platform/db/data-source';
import { entities } from '@/entities';
import { DatabaseModule } from '@/platform/db/database.module';
import { RedisModule } from '@/modules/redis';
import { resetState } from './state';

export interface ModuleContext {
  /** The booted module's providers (`ctx.get(MailService)`), without an HTTP server. */
  ctx: TestingModule;
  config: AppConfig;
  /** The data source, for reading and preparing rows in SQL. */
  db: DataSource;
  /** The application's modules (any *.module.ts under src/modules) that booted, by class name, sorted. */
  booted: string[];
  close(): Promise<void>;
}

/**
 * The module medium tier (docs/development.md; jest.config.js): one feature module booted alone
 * on the shared infrastructure every module stands on, as AppModule gives it (the validated
 * config, TypeORM with every entity (src/entities.ts: entity files only), `Database`, Redis, Bull and the
 * queue machinery, the hook registry), against the worker's database, migrated and emptied
 * (test/support/state.ts). `openHooks` names the hooks the module uses whose implementers are not
 * booted (a higher module's): only those may lack one, and calling one throws.
 * Nothing else of the application loads: not AppModule;
 * Nest boots what the module imports, and `booted` names it. ROLE defaults to `api`: no queue
 * worker or maintenance loop runs behind the test's back.
 */
export async function bootModule(
  feature: Type<unknown>,
  options: { env?: Record<string, string>; openHooks?: Hook<object>[] } = {},
): Promise<ModuleContext> {
  const config = loadConfig({ ...process.env, ROLE: 'api', ...options.env });
  await resetState(config);
  const ctx = await Test.createTestingModule({
    imports: [
      AppConfigModule,
      TypeOrmModule.forRootAsync({
        inject: [APP_CONFIG],
        useFactory: (c: AppConfig) => buildDataSourceOptions(c, entities),
      }),
      DatabaseModule,
      RedisModule,
      BullModule.forRootAsync({
        inject: [APP_CONFIG],
        useFactory: (c: AppConfig) => ({ url: c.redisUrl, prefix: `${c.redisPrefix}:bull` }),
      }),
      QueueModule,
      HooksModule,
      feature,
    ],
  })
    .overrideProvider(APP_CONFIG)
    .useValue(config)
    .overrideProvider(OPEN_HOOKS)
    .useValue(options.openHooks ?? [])
    .compile();
  await ctx.init();
  const names = new Set([...ctx.get(ModulesContainer).values()].map((m) => m.metatype.name));
  const booted = applicationModules().filter(
    (name) => names.has(name) && name !== RedisModule.name,
  );
  return { ctx, config, db: ctx.get(DataSource), booted, close: () => ctx.close() };
}

/** The class names of the application's own modules, read from every *.module.ts under src/modules. */
function applicationModules(): string[] {
  const root = join(__dirname, '../../src/modules');
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.module.ts'))
    .flatMap((f) =>
      [...readFileSync(join(root, f), 'utf8').matchAll(/export class (\w+Module)\b/g)].map(
        (m) => m[1],
      ),
    )
    .sort();
}

/** An account row written in SQL, for a module booted without the accounts module: its id. */
export async function insertAccount(db: DataSource): Promise<string> {
  const name = `Practice ${randomBytes(4).toString('hex')}`;
  const [{ id }] = await db.query(`INSERT INTO accounts (name) VALUES ($1) RETURNING id`, [name]);
  return id as string;
}
