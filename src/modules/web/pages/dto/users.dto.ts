import { MIN_PASSWORD_LENGTH, USER_ROLES } from '@/modules/accounts';
import { EmailField, StringField } from '@/platform/http/validation/fields';

/** At least MIN_PASSWORD_LENGTH characters (code points), kept as typed (no trimming). */
const PASSWORD = {
  required: true,
  trim: false,
  maxLength: 200,
  pattern: new RegExp(`^.{${MIN_PASSWORD_LENGTH},}$`, 'su'),
  patternMessage: `Ensure this field has at least ${MIN_PASSWORD_LENGTH} characters.`,
  example: 'correct horse battery staple',
} as const;

/** The Users page's invitation form (SECURITY.md). */
export class InviteUserDto {
  @EmailField({ required: true, example: 'optician@practice.example' })
  email: string;

  @StringField({ required: true, choices: USER_ROLES, example: 'staff' })
  role: string;
}

export class ChangeRoleDto {
  @StringField({ required: true, choices: USER_ROLES, example: 'admin' })
  role: string;
}

/** The new password of an invitation or reset link, typed twice. */
export class SetPasswordDto {
  @StringField(PASSWORD)
  password: string;

  @StringField({
    required: true,
    trim: false,
    maxLength: 200,
    example: 'correct horse battery staple',
  })
  password_confirmation: string;
}

export class ChangePasswordDto {
  @StringField({ required: true, trim: false, maxLength: 200, example: 'the old password' })
  current_password: string;

  @StringField(PASSWORD)
  new_password: string;

  @StringField({
    required: true,
    trim: false,
    maxLength: 200,
    example: 'correct horse battery staple',
  })
  new_password_confirmation: string;
}

export class ForgotPasswordDto {
  @EmailField({ required: true, example: 'optician@practice.example' })
  email: string;
}
