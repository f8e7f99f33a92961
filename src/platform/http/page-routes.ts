import { applyDecorators, Controller, HttpCode } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { METHODS } from './api-routes';

/**
 * A controller of the web application's pages: its routes under `path` (`app/…`), left out of
 * the API's document. `also` are the class's other declarations (AdminOnly, EmbeddedReach).
 */
export function PageController(path: string, ...also: ClassDecorator[]): ClassDecorator {
  return applyDecorators(ApiExcludeController(), ...also, Controller(path));
}

/** What a page route declares besides its method and path. */
export interface PageRouteDoc {
  /** Its audit declaration, `Audited(...)` (modules/audit), when it reads or changes patient data. */
  audit?: MethodDecorator;
  /** What an embedded session reaches of it, `EmbeddedReach(...)` (modules/web). */
  reach?: MethodDecorator;
  /** The answer's status when not Nest's default (a POST that shows a page: 200). */
  status?: number;
}

/**
 * A route of the web application, on the API routes' table of methods: method and path, then
 * what embedded sessions reach of it, its audit declaration and its status.
 */
export function PageRoute(
  method: keyof typeof METHODS,
  path: string,
  doc: PageRouteDoc = {},
): MethodDecorator {
  const { audit, reach, status } = doc;
  const stack: MethodDecorator[] = [
    METHODS[method](path),
    ...(reach ? [reach] : []),
    ...(audit ? [audit] : []),
    ...(status === undefined ? [] : [HttpCode(status)]),
  ];
  return applyDecorators(...stack.reverse());
}

/** A page (GET). */
export const PageRead = (path = '', doc?: PageRouteDoc) => PageRoute('get', path, doc);

/** A form's submission (POST). */
export const PageWrite = (path = '', doc?: PageRouteDoc) => PageRoute('post', path, doc);
