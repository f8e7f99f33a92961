-- The application's database role: what the service needs, and no more (deploy/README.md,
-- "Database roles"). Run it as the role that owns the schema (the one in DATABASE_MIGRATION_URL),
-- after the migrations have created the tables:
--
--   psql "postgres://vision_owner:PASSWORD@POSTGRES-HOST:5432/vision" \
--     -v app_role=vision_app -f deploy/database-roles.sql
--
-- Running it again is harmless. The application's role owns no table, so it cannot
-- `ALTER TABLE audit_events DISABLE TRIGGER`, drop the append-only trigger or replace its
-- function (each needs ownership), and it is not granted UPDATE, DELETE or TRUNCATE on
-- audit_events: the trail is append-only whatever the application does.
\set ON_ERROR_STOP on

BEGIN;

-- Nothing of the application's role's own in the schema (PostgreSQL 15 and later already refuse
-- CREATE to PUBLIC here; older versions allowed it).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO :"app_role";

-- Rows of every table, and the sequences behind them.
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"app_role";
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO :"app_role";

-- The audit trail: written and read, never changed or emptied.
REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON audit_events FROM :"app_role";

-- The migrations' own bookkeeping: read at start (is anything pending?), written by the owner only.
REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON typeorm_migrations
  FROM :"app_role";

-- Tables and sequences that later migrations create (as this role) get the same grants. A later
-- append-only table needs its own REVOKE here, like audit_events.
ALTER DEFAULT PRIVILEGES IN SCHEMA public
  GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app_role";
ALTER DEFAULT PRIVILEGES IN SCHEMA public
  GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO :"app_role";

COMMIT;
