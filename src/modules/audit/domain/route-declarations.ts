import { Injectable, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { BODY_LIMITS } from '@/platform/http/body/body-limits';
import { REQUIRED_SCOPES } from '@/platform/http/scopes';
import { isApiPath } from '@/platform/http/doors';
import { AUDIT_METADATA } from './audited';

export interface RouteDeclaration {
  method: string;
  path: string;
  /** The @RequireScope metadata, if any. */
  scope: unknown;
  /** The @Audited spec, 'not-patient-data', or undefined. */
  audit: unknown;
  /** The route's own body limits (@AcceptsBody), if any. */
  body?: unknown;
}

const joinPath = (...parts: string[]) =>
  `/${parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}/`;

/** Every route of the application's controllers, with what it declares. */
export function listRoutes(
  discovery: DiscoveryService,
  scanner: MetadataScanner,
): RouteDeclaration[] {
  const routes: RouteDeclaration[] = [];
  for (const wrapper of discovery.getControllers()) {
    const instance = wrapper.instance as object | undefined;
    if (!instance || !wrapper.metatype) continue;
    const base = Reflect.getMetadata(PATH_METADATA, wrapper.metatype) as string | string[];
    const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name] as object;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (path === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      for (const b of [base].flat())
        for (const p of [path].flat())
          routes.push({
            method,
            path: joinPath(b ?? '', p),
            scope: Reflect.getMetadata(REQUIRED_SCOPES, handler),
            audit: Reflect.getMetadata(AUDIT_METADATA, handler),
            body: Reflect.getMetadata(BODY_LIMITS, handler),
          });
    }
  }
  return routes;
}

/** API routes (isApiPath) that forgot to declare their scope or what they do to patient data. */
export function undeclaredApiRoutes(routes: RouteDeclaration[]): string[] {
  const problems: string[] = [];
  for (const r of routes.filter((x) => isApiPath(x.path))) {
    if (!r.scope) problems.push(`${r.method} ${r.path}: no @RequireScope`);
    if (!r.audit) problems.push(`${r.method} ${r.path}: neither @Audited nor @NotPatientData`);
  }
  return problems;
}

/**
 * Refuses to start when a route under /api/ declares no scope, or neither @Audited nor
 * @NotPatientData: a new endpoint cannot forget its scope or its audit trail.
 */
@Injectable()
export class RouteDeclarationCheck implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onApplicationBootstrap(): void {
    const problems = undeclaredApiRoutes(listRoutes(this.discovery, this.scanner));
    if (problems.length > 0)
      throw new Error(`Routes under /api/ without their declarations:\n  ${problems.join('\n  ')}`);
  }
}
