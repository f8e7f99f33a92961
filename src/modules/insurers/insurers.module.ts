import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { clearinghouseClientProvider } from './clearinghouse/clearinghouse.provider';
import { X12EligibilityConnector } from './clearinghouse/x12-eligibility.connector';
import { DemoVisionConnector } from './demo/demo-vision.connector';
import { InsurerRegistry } from './insurer-registry.service';
import { InsurerSettingsService } from './insurer-settings.service';

/** Insurer connectors. To add an insurer: write its connector class and list it here. */
@Module({
  imports: [DiscoveryModule],
  providers: [
    InsurerRegistry,
    InsurerSettingsService,
    DemoVisionConnector,
    clearinghouseClientProvider,
    X12EligibilityConnector,
  ],
  exports: [InsurerRegistry, InsurerSettingsService],
})
export class InsurersModule {}
