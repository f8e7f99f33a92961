export { ListQuery as ListClaimsQuery } from '@/platform/http/pagination/list-query';
