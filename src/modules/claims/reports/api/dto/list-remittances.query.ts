export { ListQuery as ListRemittancesQuery } from '@/platform/http/pagination/list-query';
