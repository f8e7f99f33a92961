/**
 * The door of the claims module: what other modules use of it. Another module imports from
 * '@/modules/claims' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { lineCharge } from './claim-charges';
export { ClaimsModule } from './claims.module';
export { ClaimsService } from './claims.service';
export { givenAccountNumber } from './cms1500-services';
export { ClaimRemittanceResponse } from './dto/claim-parts.response';
export { ClaimListResponse } from './dto/claim.response';
export { CreateClaimDto, MAX_SERVICES } from './dto/create-claim.dto';
export { ListClaimsQuery } from './dto/list-claims.query';
export { NotifyCustomerDto } from './dto/notify-customer.dto';
export { ClaimReportsService } from './reports/claim-reports.service';
export { ListRemittancesQuery } from './reports/dto/list-remittances.query';
export { RemittanceListResponse } from './reports/dto/remittance.response';
export { UnmatchedRemittancesModule } from './reports/unmatched-remittances.module';
export { UnmatchedRemittances } from './reports/unmatched-remittances.service';
