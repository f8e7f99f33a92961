export { ListQuery as ListRemittancesQuery } from '@/common/pagination/list-query';
