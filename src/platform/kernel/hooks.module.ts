import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { HookRegistry, OPEN_HOOKS } from './hooks';

/** The hook registry (hooks.ts), global: every module listing a hook reaches it. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [HookRegistry, { provide: OPEN_HOOKS, useValue: [] }],
  exports: [HookRegistry],
})
export class HooksModule {}
