/**
 * The one rule every password set anywhere meets (SECURITY.md: at least 12 characters): the CLI's
 * accounts:create, users:create and users:reset-password, invitation and reset links, and the
 * change-password form (whose DTOs say the same with MIN_PASSWORD_LENGTH).
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

/** What is wrong with a new password (counted in code points, as typed), or null. */
export function passwordProblem(password: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    return `Ensure this field has at least ${MIN_PASSWORD_LENGTH} characters.`;
  if ([...password].length > MAX_PASSWORD_LENGTH)
    return `Ensure this field has no more than ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}
