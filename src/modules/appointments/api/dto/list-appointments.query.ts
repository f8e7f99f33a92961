import { StringField, TimestampField } from '@/platform/http/validation/fields';
import { PAGE_SIZES, PageCursorField, PageSizeField } from '@/platform/http/pagination/page-query';
import { LocationCodeField } from '@/modules/accounts';
import { COVERAGE_FILTERS, type CoverageFilter } from '../../domain/appointment-words';

/** The worklist's query (docs/api.md, Appointments): filters, then the page. */
export class ListAppointmentsQuery {
  @TimestampField({
    example: '2026-11-24T00:00:00-06:00',
    description: 'Only appointments starting at or after this instant (RFC 3339 with its offset).',
  })
  from?: string | null;

  @TimestampField({
    example: '2026-11-25T00:00:00-06:00',
    description: 'Only appointments starting before this instant; after `from`.',
  })
  to?: string | null;

  @LocationCodeField('Only appointments of this location (unknown code → field error).')
  location_code?: string | null;

  @StringField({
    choices: COVERAGE_FILTERS,
    example: 'not_checked',
    description:
      'Only appointments whose coverage is in this state; `stale`: those whose `coverage.stale` ' +
      'is true, whatever their state.',
  })
  coverage_state?: CoverageFilter | null;

  @PageSizeField(PAGE_SIZES.list)
  limit?: number | null;

  @PageCursorField()
  cursor?: string | null;
}
