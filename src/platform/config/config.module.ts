import { Global, Inject, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { AppConfig, validateEnv } from './env';

export const APP_CONFIG = Symbol('APP_CONFIG');
export const InjectConfig = () => Inject(APP_CONFIG);

/**
 * Wraps @nestjs/config: the environment is validated once (validateEnv) and exposed as one typed
 * AppConfig object, injected with @InjectConfig().
 */
@Global()
@Module({
  imports: [ConfigModule.forRoot({ isGlobal: true, cache: true, validate: validateEnv })],
  providers: [
    {
      provide: APP_CONFIG,
      inject: [ConfigService],
      useFactory: (config: ConfigService<{ app: AppConfig }, true>) =>
        config.get('app', { infer: true }),
    },
  ],
  exports: [APP_CONFIG],
})
export class AppConfigModule {}
