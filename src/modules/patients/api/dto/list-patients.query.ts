import { DateField, StringField } from '@/platform/http/validation/fields';
import { ListQuery } from '@/platform/http/pagination/list-query';
import { LocationCodeField } from '@/modules/accounts';

/** The page (`limit`, `cursor`), then the filters. */
export class ListPatientsQuery extends ListQuery {
  @StringField({
    maxLength: 100,
    allowBlank: true,
    example: 'gonz',
    description:
      'Name search, case-insensitive: every word must appear in the first, middle or last name.',
  })
  search?: string | null;

  @DateField({ example: '1986-04-12', description: 'Only patients born on this date.' })
  dob?: string | null;

  @LocationCodeField('Only patients of this location (unknown code → field error).')
  location_code?: string | null;

  @StringField({
    maxLength: 64,
    allowBlank: true,
    example: 'CHART-20931',
    description: 'Only patients with exactly this account number.',
  })
  account_number?: string | null;
}
