-- The merchant dashboard (issue 15): sign-in links and sessions (only hashes of their secrets). Repeatable and idempotent, so it never competes for a version number.
CREATE TABLE IF NOT EXISTS checkout.dashboard_links (
    token_hash   text PRIMARY KEY,
    owner_id     text NOT NULL,
    mode         text NOT NULL CHECK (mode IN ('test', 'live')),
    live_allowed boolean NOT NULL,
    created_by   text NOT NULL,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz
);
CREATE TABLE IF NOT EXISTS checkout.dashboard_sessions (
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
-- API logs: every authenticated API request (the dashboard's "API logs"), written after the answer is sent,
-- answers stored with their secrets masked, kept for platform.api-logs.retention.
CREATE TABLE IF NOT EXISTS checkout.api_logs (
    seq           bigserial PRIMARY KEY,
    request_id    text NOT NULL,
    owner_id      text NOT NULL,
    mode          text NOT NULL,
    key_id        text NOT NULL,
    method        text NOT NULL,
    path          text NOT NULL,
    status        integer NOT NULL,
    latency_ms    bigint NOT NULL,
    response_body text,
    created_at    timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS api_logs_owner ON checkout.api_logs (owner_id, mode, seq DESC);
CREATE INDEX IF NOT EXISTS api_logs_request ON checkout.api_logs (request_id);
-- Recovered windows (support/outbox DeliveryRecovery): one row per address ("<destination>/<mode>") and window, so
-- the same window asked twice resends nothing the second time.
CREATE TABLE IF NOT EXISTS checkout.delivery_recoveries (
    address    text NOT NULL,
    since      timestamptz NOT NULL,
    until      timestamptz NOT NULL,
    resent     integer NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (address, since, until)
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint_created ON checkout.webhook_deliveries (endpoint_id, created_at);
