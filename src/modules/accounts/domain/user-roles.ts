/** SECURITY.md: `admin` does everything; `staff` works with patients, checks and claims only. */
export const USER_ROLES = ['admin', 'staff'] as const;
export type UserRole = (typeof USER_ROLES)[number];
