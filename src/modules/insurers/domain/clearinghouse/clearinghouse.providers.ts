import type { Provider } from '@nestjs/common';
import { APP_CONFIG } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { ClaimsClearinghouseClient } from './claims-clearinghouse.client';
import { ClearinghouseClient } from './clearinghouse.client';

/** One eligibility client per process: it holds the cached OAuth2 token. */
export const clearinghouseClientProvider: Provider = {
  provide: ClearinghouseClient,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => new ClearinghouseClient(config.clearinghouse),
};

/** One claims client per process: it holds the cached OAuth2 token of the claims calls. */
export const claimsClearinghouseClientProvider: Provider = {
  provide: ClaimsClearinghouseClient,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) =>
    new ClaimsClearinghouseClient(config.clearinghouse, config.claims),
};
