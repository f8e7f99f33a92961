import { sql, type Sql } from '@/platform/db/sql';

/**
 * `locations` in other modules' statements (docs/architecture.md, Data access): the table is the
 * accounts module's and is named only here and in its repositories. Each piece takes fragments
 * of the caller's statement (its columns such as `q.account_id`, or values) and places them.
 */
export const LocationSql = {
  /**
   * A subquery for `CROSS JOIN LATERAL (...) alias`: the id of the account's location named by
   * id, else by code, else its default one (no row: none matches).
   */
  chosen(p: { accountId: Sql; locationId: Sql; locationCode: Sql }): Sql {
    return sql`SELECT l.id FROM locations l
      WHERE l.account_id = ${p.accountId}
        AND CASE WHEN ${p.locationId} IS NOT NULL THEN l.id = ${p.locationId}
                 WHEN ${p.locationCode} IS NOT NULL THEN l.code = ${p.locationCode}
                 ELSE l.is_default END
      LIMIT 1`;
  },

  /**
   * A scalar subquery: the location's provider identity as JSON (`npi`, `organization_name`,
   * `tax_id`; the title without an organisation name), or NULL when it has no NPI.
   */
  providerJson(p: { locationId: Sql; accountId: Sql }): Sql {
    return sql`(SELECT json_build_object('npi', l.npi, 'organization_name', COALESCE(l.organization_name, l.title),
      'tax_id', l.tax_id)
   FROM locations l
   WHERE l.id = ${p.locationId} AND l.account_id = ${p.accountId} AND l.npi IS NOT NULL)`;
  },

  /** `LEFT JOIN locations <alias>` on the account's location `locationId`. */
  leftJoin(alias: string, p: { locationId: Sql; accountId: Sql }): Sql {
    const l = sql.raw(alias);
    return sql`LEFT JOIN locations ${l} ON ${l}.id = ${p.locationId} AND ${l}.account_id = ${p.accountId}`;
  },
} as const;
