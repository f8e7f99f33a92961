import { BoolField, StringField } from '@/platform/http/validation/fields';

/**
 * A second-factor code: six digits from the authenticator app, or (at sign-in and to turn
 * two-factor off) one of the recovery codes. Web only: two-factor is a web sign-in matter.
 */
export class TwoFactorCodeDto {
  @StringField({ required: true, maxLength: 32, example: '123456' })
  code: string;
}

/** The account-wide requirement form. */
export class TwoFactorRequirementDto {
  @BoolField({ required: true, example: true })
  require_two_factor: boolean;
}
