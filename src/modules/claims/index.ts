/**
 * The door of the claims module: what other modules use of it. Another module imports from
 * '@/modules/claims' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { lineCharge } from './domain/claim-charges';
export { ClaimsModule } from './claims.module';
export { ClaimsService } from './domain/claims.service';
export { givenAccountNumber } from './domain/cms1500-services';
export { ClaimRemittanceResponse } from './api/dto/claim-parts.response';
export { ClaimListResponse } from './api/dto/claim.response';
export { CreateClaimDto, MAX_SERVICES } from './api/dto/create-claim.dto';
export { ListClaimsQuery } from './api/dto/list-claims.query';
export { NotifyCustomerDto } from './api/dto/notify-customer.dto';
export { ClaimReportsService } from './reports/domain/claim-reports.service';
export { ListRemittancesQuery } from './reports/api/dto/list-remittances.query';
export { RemittanceListResponse } from './reports/api/dto/remittance.response';
export { UnmatchedRemittancesModule } from './reports/unmatched-remittances.module';
export { UnmatchedRemittances } from './reports/domain/unmatched-remittances.service';
