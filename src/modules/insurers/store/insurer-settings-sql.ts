import { sql, type Sql } from '@/platform/db/sql';

/**
 * `account_insurers` in other modules' statements (docs/architecture.md, Data access): the table
 * is the insurers module's and is named only here and in its repository. The piece takes
 * fragments of the caller's statement (its columns, or values) and places them where they go.
 */
export const InsurerSettingsSql = {
  /**
   * A scalar subquery: the account's settings rows of the insurers `codes` (an array
   * expression) as a JSON array (insurer_code, enabled, username, password_sealed,
   * eligibility_mode); InsurerSettingsService.forSearch reads each.
   */
  settingsJson(p: { accountId: Sql; codes: Sql }): Sql {
    return sql`(SELECT COALESCE(json_agg(json_build_object('insurer_code', ai.insurer_code, 'enabled', ai.enabled,
      'username', ai.username, 'password_sealed', ai.password_sealed,
      'eligibility_mode', ai.eligibility_mode)), '[]'::json)
   FROM account_insurers ai
   WHERE ai.account_id = ${p.accountId} AND ai.insurer_code = ANY(${p.codes}))`;
  },
} as const;
