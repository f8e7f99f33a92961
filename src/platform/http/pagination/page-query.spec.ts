import { ValidationFailed } from '../../kernel/errors';
import { createValidationPipe } from '../validation/validation-errors';
import { PAGE_SIZES, PageCursorField, PageSizeField } from './page-query';

class ProbeQuery {
  @PageSizeField(PAGE_SIZES.list)
  limit?: number | null;

  @PageCursorField()
  cursor?: string | null;
}

/** The query as the production pipe makes it, or the fields it refused. */
async function read(query: Record<string, string>): Promise<ProbeQuery | string[]> {
  try {
    return (await createValidationPipe().transform(query, {
      type: 'query',
      metatype: ProbeQuery,
    })) as ProbeQuery;
  } catch (e) {
    if (e instanceof ValidationFailed) return Object.keys(e.errors);
    throw e;
  }
}

describe('the list query fields (docs/api.md, Conventions: Pagination)', () => {
  it('reads ?limit= as a number and passes ?cursor= on, an empty one included', async () => {
    expect(await read({ limit: '20', cursor: 'abc' })).toMatchObject({ limit: 20, cursor: 'abc' });
    expect(await read({ cursor: '' })).toMatchObject({ cursor: '' });
    expect(await read({})).toBeInstanceOf(ProbeQuery);
  });

  it('refuses a page size outside 1 to max, and a cursor past 200 characters', async () => {
    expect(await read({ limit: '0' })).toEqual(['limit']);
    expect(await read({ limit: '201' })).toEqual(['limit']);
    expect(await read({ limit: 'ten' })).toEqual(['limit']);
    expect(await read({ cursor: 'x'.repeat(201) })).toEqual(['cursor']);
  });
});
