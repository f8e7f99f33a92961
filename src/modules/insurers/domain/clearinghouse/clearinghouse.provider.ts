import type { Provider } from '@nestjs/common';
import { APP_CONFIG } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { ClearinghouseClient } from './clearinghouse.client';

/** One client per process: it holds the cached OAuth2 token. */
export const clearinghouseClientProvider: Provider = {
  provide: ClearinghouseClient,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => new ClearinghouseClient(config.clearinghouse),
};
