import {
  applyDecorators,
  Delete,
  Get,
  HttpCode,
  Patch,
  Post,
  Put,
  type Type,
} from '@nestjs/common';
import type { Response } from 'express';
import { ApiOkResponse, ApiOperation, ApiParam, type ApiParamOptions } from '@nestjs/swagger';
import { ApiResponse } from '@nestjs/swagger';
import { ApiStandardErrors } from './api-docs';
import { AcceptsBody, type BodyLimits } from './body/body-limits';
import { type ApiScope, RequireScope } from './scopes';

/** One argument of ApiStandardErrors: a status, or a status with its example body. */
export type ApiErrorArg = Parameters<typeof ApiStandardErrors>[number];

/** What every API route declares besides its method and path. */
export interface ApiRouteDoc {
  /** The scope the route needs (all of them, when several are given): RequireScope. */
  scope: ApiScope | ApiScope[];
  /** Its audit declaration, `Audited(...)` or `NotPatientData()` (modules/audit). */
  audit: MethodDecorator;
  summary: string;
  description?: string;
  /** The path parameter, as documented. */
  param?: ApiParamOptions;
  /** The success answer's body, when it is a plain DTO. */
  answer?: Type;
  /** The answers besides the standard errors (ApiStandardErrors' arguments). */
  errors?: ApiErrorArg[];
  /** The route's own body limits (docs/api.md, Conventions), when not the default ones. */
  body?: Partial<BodyLimits>;
}

/** The route methods, for the API routes and the pages (page-routes.ts). */
export const METHODS = { get: Get, post: Post, put: Put, patch: Patch, delete: Delete } as const;

/**
 * A route of the API: method and path, HttpCode when `status` is given, then its scope, audit
 * declaration and OpenAPI operation. Write it above the route's other decorators (ApiBody, an
 * answer with examples): like a written stack, the lowest applies first and RequireScope, which
 * completes a documented 403, after every answer.
 */
export function ApiRoute(
  method: keyof typeof METHODS,
  path: string,
  status: number | undefined,
  doc: ApiRouteDoc,
): MethodDecorator {
  const { scope, audit, summary, description, param, answer, errors = [], body } = doc;
  const stack: MethodDecorator[] = [
    METHODS[method](path),
    RequireScope(scope),
    audit,
    ...(body ? [AcceptsBody(body)] : []),
    ...(status === undefined ? [] : [HttpCode(status)]),
    ApiOperation(description === undefined ? { summary } : { summary, description }),
    ...(param ? [ApiParam(param)] : []),
    ...(answer ? [answerOf(status ?? 200, answer)] : []),
    ApiStandardErrors(...errors),
  ];
  return applyDecorators(...stack.reverse());
}

function answerOf(status: number, type: Type): MethodDecorator {
  return status === 200 ? ApiOkResponse({ type }) : ApiResponse({ status, type });
}

/** A GET answering 200: one object by its path parameter, or a list. */
export const ApiRead = (path: string, doc: ApiRouteDoc) => ApiRoute('get', path, undefined, doc);

/** A POST answering `status` (201, a 200 or a 202) rather than Nest's default. */
export const ApiWrite = (path: string, status: number, doc: ApiRouteDoc) =>
  ApiRoute('post', path, status, doc);

/** The 400 of a list given a cursor it did not hand out. */
export const INVALID_CURSOR: ApiErrorArg = [
  400,
  { errors: { cursor: { $: ['Invalid cursor.'] } } },
];

/** A 200 whose body is an X12 interchange, sent as `text/plain` (see `sendText`). */
export const ApiX12Answer = (description: string, example: string) =>
  ApiOkResponse({
    description,
    content: { 'text/plain': { schema: { type: 'string' }, example } },
  });

/** A passthrough route's text body, typed `text/plain; charset=utf-8`. */
export function sendText(res: Response, text: string): string {
  res.type('text/plain; charset=utf-8');
  return text;
}
