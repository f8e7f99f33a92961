import type { Type } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ValidationFailed } from '@/platform/kernel/errors';
import type { PageSpec } from './form-page';
import { bindForm } from './forms';
import { renderPage } from './web-context';

/** One page of a cursor-paged list, as the API's list routes answer it. */
export interface Paged<T> {
  result: T[];
  next_cursor: string | null;
}

export interface ListSpec<Q> extends PageSpec {
  /** The API route's query DTO: it binds the filters, the cursor and the page size. */
  dto: Type<Q>;
  /** The query string's filters besides `cursor`. */
  filters?: string[];
  /** Rows at a time: the `limit` the query is bound with. */
  size?: string;
}

/**
 * A cursor-paged list page: its filters and cursor from the query string (each as typed, or
 * blank), bound by the API route's query DTO; `load` finds one page and `model` turns its rows
 * into what the view shows. A query the API would refuse (a malformed filter, a stale cursor)
 * finds nothing rather than an error page. The view gets `query` (the filters as typed),
 * `nextCursor`, and `firstPageQuery` / `nextPageQuery` (the filters kept, blanks left out).
 */
export class ListPage<Q extends object, T> {
  constructor(
    private readonly spec: ListSpec<Q>,
    private readonly load: (req: Request, query: Q) => Promise<Paged<T>>,
    private readonly model: (rows: T[]) => Record<string, unknown>,
  ) {}

  async show(req: Request, res: Response): Promise<void> {
    const { view, title, section, dto, filters = [], size = '25' } = this.spec;
    const text = (v: unknown) => (typeof v === 'string' ? v : '');
    const query = Object.fromEntries([...filters, 'cursor'].map((k) => [k, text(req.query[k])]));
    let page: Paged<T>;
    try {
      page = await this.load(req, await bindForm(dto, { ...query, limit: size }));
    } catch (e) {
      if (!(e instanceof ValidationFailed)) throw e;
      page = { result: [], next_cursor: null };
    }
    const params = (cursor: string) =>
      new URLSearchParams(Object.entries({ ...query, cursor }).filter(([, v]) => v)).toString();
    renderPage(req, res, view, {
      title,
      section,
      ...this.model(page.result),
      query,
      nextCursor: page.next_cursor,
      nextPageQuery: params(page.next_cursor ?? ''),
      firstPageQuery: params(''),
    });
  }
}
