/**
 * The door of the accounts module: what other modules use of it. Another module imports from
 * '@/modules/accounts' only (lint refuses otherwise; docs/architecture.md, Module graph).
 */
export { AccountsModule } from './accounts.module';
export { AccountsService } from './accounts.service';
export {
  CreateLocationDto,
  LocationRef,
  LocationResponse,
  RenderingProviderDto,
  RenderingProviderIdentityResponse,
  UpdateLocationDto,
} from './dto/location.dto';
export { ORGANISATION_NPI_MESSAGE } from './location-fields';
export { LocationSql } from './location-sql';
export type { Location } from './location.entity';
export { NpiRegistry } from './npi-registry';
export { isValidNpi } from './npi';
export { TwoFactorService } from './two-factor.service';
export { USER_ROLES } from './user-roles';
export type { UserRole } from './user-roles';
export type { User } from './user.entity';
export { MIN_PASSWORD_LENGTH, UsersService, WrongCurrentPassword } from './users.service';
export type { UserSummary } from './users.service';
