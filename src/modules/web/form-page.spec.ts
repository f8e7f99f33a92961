import type { Request, Response } from 'express';
import { ConflictError, ValidationFailed } from '@/platform/kernel/errors';
import { FormPage } from './form-page';

function call(body: Record<string, unknown> = {}) {
  const req = { body, session: { csrf: 'token' } } as unknown as Request;
  const render = jest.fn();
  const status = jest.fn();
  const res = { render, status } as unknown as Response;
  return { req, res, render, status };
}

describe('FormPage', () => {
  const page = new FormPage<{ code: string }>(
    { view: 'thing.njk', title: 'Thing', section: 'things' },
    (_req, { code, form, errors }) => ({ code, typed: form.name ?? '', errors }),
  );

  it('renders its view with its title and section, the model and what every page has', async () => {
    const { req, res, render } = call();
    await page.show(req, res, { code: 'T1' });
    expect(render).toHaveBeenCalledWith('thing.njk', {
      title: 'Thing',
      section: 'things',
      code: 'T1',
      typed: '',
      errors: null,
      user: null,
      csrf: 'token',
      embedded: false,
      flash: null,
    });
  });

  it("lets the model's title replace the spec's", async () => {
    const titled = new FormPage({ view: 'v.njk', title: 'Plain', section: 's' }, () => ({
      title: 'Given',
    }));
    const { req, res, render } = call();
    await titled.show(req, res, {});
    expect(render.mock.calls[0][1]).toMatchObject({ title: 'Given', section: 's' });
  });

  it('hands the submission its form fields, strings only; an answer leaves the page unshown', async () => {
    const { req, res, render, status } = call({ name: 'Ann', tags: ['a', 'b'] });
    const submit = jest.fn(() => Promise.resolve());
    await page.post(req, res, { code: 'T1' }, submit);
    expect(submit).toHaveBeenCalledWith({ name: 'Ann' });
    expect(render).not.toHaveBeenCalled();
    expect(status).not.toHaveBeenCalled();
  });

  it('shows the page again with 400, the base, what was typed and the errors on a refusal', async () => {
    const { req, res, render, status } = call({ name: 'Ann' });
    await page.post(req, res, { code: 'T1' }, () =>
      Promise.reject(ValidationFailed.field('name', 'Too short.')),
    );
    expect(status).toHaveBeenCalledWith(400);
    expect(render.mock.calls[0][1]).toMatchObject({
      code: 'T1',
      typed: 'Ann',
      errors: { name: { $: ['Too short.'] } },
    });
  });

  it('passes any other error on', async () => {
    const { req, res, render } = call();
    const conflict = new ConflictError('Taken.');
    await expect(page.post(req, res, { code: 'T1' }, () => Promise.reject(conflict))).rejects.toBe(
      conflict,
    );
    expect(render).not.toHaveBeenCalled();
  });
});
