/**
 * The door of the accounts module: what other modules use of it. Another module imports from
 * '@/modules/accounts' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { AccountsModule } from './accounts.module';
export { AccountsService } from './domain/accounts.service';
export {
  CreateLocationDto,
  LocationCodeField,
  LocationRef,
  RenderingProviderDto,
  RenderingProviderIdentityResponse,
  UpdateLocationDto,
} from './api/dto/location.dto';
export { locationAddress, ORGANISATION_NPI_MESSAGE } from './domain/location-fields';
export { LocationSql } from './store/location-sql';
export type { Location } from './store/location.entity';
export { NpiRegistry } from './domain/npi-registry';
export { TwoFactorService } from './domain/two-factor.service';
export { USER_ROLES } from './domain/user-roles';
export type { UserRole } from './domain/user-roles';
export type { User } from './store/user.entity';
export { MIN_PASSWORD_LENGTH } from './domain/password-rule';
export { UsersService, WrongCurrentPassword } from './domain/users.service';
export type { UserSummary } from './domain/users.service';
