import type { Request, Response } from 'express';
import type { ErrorTree } from '@/platform/kernel/errors';
import { formFields, submitForm } from './forms';
import { renderPage } from './web-context';

/** A page's template, its title and the section of the navigation it belongs to. */
export interface PageSpec {
  view: string;
  title: string;
  section: string;
}

/**
 * What a form page shows of its form: the fields as typed and the error tree of their refusal.
 * `errors` is null when no form was refused (`form` is then what the page fills in, often `{}`).
 */
export interface Typed {
  form: Record<string, string>;
  errors: ErrorTree | null;
}

/** What a page shows besides its title and section, for one request and one state of the page. */
export type PageModel<B> = (
  req: Request,
  state: B & Typed,
) => Promise<Record<string, unknown>> | Record<string, unknown>;

const BLANK: Typed = { form: {}, errors: null };

/**
 * A page and the forms it holds (docs/api.md, Errors: a refused form shows the API's messages by
 * its fields). Its state is `base` (what the route names: a record's code, a secret to show once)
 * with the form as typed; `model` turns it into what the view shows. A model's `title` replaces
 * the spec's.
 */
export class FormPage<B extends object = object> {
  constructor(
    private readonly spec: PageSpec,
    private readonly model: PageModel<B>,
  ) {}

  async show(req: Request, res: Response, base: B, typed: Typed = BLANK): Promise<void> {
    const { view, title, section } = this.spec;
    renderPage(req, res, view, {
      title,
      section,
      ...(await this.model(req, { ...base, ...typed })),
    });
  }

  /**
   * A form's POST (submitForm): `submit` gets the form's fields and answers (a redirect with its
   * flash, or a page); when it throws a ValidationFailed this page shows again, status 400, in
   * `base` with the fields and the error tree.
   */
  async post(
    req: Request,
    res: Response,
    base: B,
    submit: (form: Record<string, string>) => Promise<void>,
  ): Promise<void> {
    const form = formFields(req.body);
    await submitForm(
      res,
      () => submit(form),
      (errors) => this.show(req, res, base, { form, errors }),
    );
  }
}
