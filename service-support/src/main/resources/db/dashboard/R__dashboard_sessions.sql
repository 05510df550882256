-- The merchant dashboard, the same in each service's own schema: sign-in links and sessions (only hashes of their
-- secrets). Repeatable and
-- idempotent, so it never competes for a version number.
CREATE TABLE IF NOT EXISTS ${flyway:defaultSchema}.dashboard_links (
    token_hash   text PRIMARY KEY,
    owner_id     text NOT NULL,
    mode         text NOT NULL CHECK (mode IN ('test', 'live')),
    live_allowed boolean NOT NULL,
    created_by   text NOT NULL,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz
);
CREATE TABLE IF NOT EXISTS ${flyway:defaultSchema}.dashboard_sessions (
    id_hash      text PRIMARY KEY,
    owner_id     text NOT NULL,
    mode         text NOT NULL CHECK (mode IN ('test', 'live')),
    live_allowed boolean NOT NULL,
    csrf_token   text NOT NULL,
    created_at   timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    ended_at     timestamptz
);
-- Issue 22: a session carries the permissions of the key (or the operator's grant) that made its link, and names
-- that key for the audit. Rows from before have none: such a session can do nothing until it signs in again.
ALTER TABLE ${flyway:defaultSchema}.dashboard_links ADD COLUMN IF NOT EXISTS permissions text[] NOT NULL DEFAULT '{}';
ALTER TABLE ${flyway:defaultSchema}.dashboard_sessions ADD COLUMN IF NOT EXISTS permissions text[] NOT NULL DEFAULT '{}';
ALTER TABLE ${flyway:defaultSchema}.dashboard_sessions ADD COLUMN IF NOT EXISTS created_by text NOT NULL DEFAULT '-';
