import { Injectable, Logger, OnModuleInit, SetMetadata } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { InsurerConnector } from './insurer-connector';
import { isKnownInsurer } from './insurer-codes';

const CONNECTOR_CODES = Symbol('insurer-connector-codes');

/**
 * Marks a provider as the connector for these insurer codes. Without codes, the instance names
 * them itself at start-up (`servedInsurerCodes()`: codes that come from configuration).
 */
export const InsurerConnectorFor = (...codes: string[]): ClassDecorator =>
  SetMetadata(CONNECTOR_CODES, codes);

/** A connector whose codes come from configuration (the X12 connector: every code with a payer id). */
export interface ServesConfiguredInsurers {
  servedInsurerCodes(): readonly string[];
}

/** Connectors by insurer code, discovered from the providers marked with @InsurerConnectorFor. */
@Injectable()
export class InsurerRegistry implements OnModuleInit {
  private readonly logger = new Logger(InsurerRegistry.name);
  private readonly connectors = new Map<string, InsurerConnector>();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const { metatype, instance } = wrapper;
      if (!metatype || !instance) continue;
      const declared = Reflect.getMetadata(CONNECTOR_CODES, metatype) as string[] | undefined;
      if (!declared) continue;
      const codes =
        declared.length > 0
          ? declared
          : ((instance as Partial<ServesConfiguredInsurers>).servedInsurerCodes?.() ?? []);
      for (const code of codes) {
        if (!isKnownInsurer(code)) throw new Error(`Connector for unknown insurer code ${code}`);
        if (this.connectors.has(code)) throw new Error(`Two connectors for ${code}`);
        this.connectors.set(code, instance as InsurerConnector);
      }
    }
    this.logger.log({ insurers: [...this.connectors.keys()] }, 'insurer connectors registered');
  }

  /** The connector for `code`, or null when the service has none (the search ends insurer_problem). */
  get(code: string): InsurerConnector | null {
    return this.connectors.get(code) ?? null;
  }

  has(code: string): boolean {
    return this.connectors.has(code);
  }

  /** Whether the connector for `code` signs in with the account's stored credentials. */
  usesAccountCredentials(code: string): boolean {
    return this.connectors.get(code)?.usesAccountCredentials === true;
  }
}
