export {
  LIST_DEFAULT_PAGE_SIZE as DEFAULT_CLAIM_PAGE_SIZE,
  LIST_MAX_PAGE_SIZE as MAX_CLAIM_PAGE_SIZE,
  ListQuery as ListClaimsQuery,
} from '@/platform/http/pagination/list-query';
