-- Payments collected through the mobile-money wallet, per (project, mode).
CREATE TABLE wallet.payments (
    id             text PRIMARY KEY,
    project_id     text NOT NULL REFERENCES wallet.projects (id),
    mode           text NOT NULL CHECK (mode IN ('test', 'live')),
    status         text NOT NULL CHECK (status IN ('created', 'pending', 'succeeded', 'failed', 'expired')),
    amount         bigint NOT NULL CHECK (amount > 0),
    fee            bigint NOT NULL CHECK (fee >= 0),
    total          bigint NOT NULL CHECK (total = amount + fee),
    currency       text NOT NULL,
    reference      text NOT NULL,
    description    text,
    return_url     text,
    page_token     text NOT NULL UNIQUE,
    created_at     timestamptz NOT NULL,
    expires_at     timestamptz NOT NULL,
    pending_at     timestamptz,
    paid_at        timestamptz,
    failed_at      timestamptz,
    expired_at     timestamptz,
    failure_reason text
);
CREATE INDEX payments_list ON wallet.payments (project_id, mode, created_at DESC, id DESC);
CREATE INDEX payments_due ON wallet.payments (expires_at) WHERE status IN ('created', 'pending');

-- The merchant balance per (project, mode, currency); guarded updates keep both columns non-negative.
CREATE TABLE wallet.balances (
    project_id text NOT NULL REFERENCES wallet.projects (id),
    mode       text NOT NULL CHECK (mode IN ('test', 'live')),
    currency   text NOT NULL,
    available  bigint NOT NULL DEFAULT 0 CHECK (available >= 0),
    reserved   bigint NOT NULL DEFAULT 0 CHECK (reserved >= 0),
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (project_id, mode, currency)
);

CREATE TABLE wallet.withdrawals (
    id               text PRIMARY KEY,
    project_id       text NOT NULL REFERENCES wallet.projects (id),
    mode             text NOT NULL CHECK (mode IN ('test', 'live')),
    status           text NOT NULL CHECK (status IN ('requested', 'processing', 'completed', 'failed', 'rejected', 'cancelled')),
    amount           bigint NOT NULL CHECK (amount > 0),
    fee              bigint NOT NULL CHECK (fee >= 0),
    total            bigint NOT NULL CHECK (total = amount + fee),
    currency         text NOT NULL,
    destination_type text NOT NULL,
    msisdn           text NOT NULL,
    reference        text NOT NULL,
    created_at       timestamptz NOT NULL,
    processing_at    timestamptz,
    completed_at     timestamptz,
    failed_at        timestamptz,
    rejected_at      timestamptz,
    cancelled_at     timestamptz,
    failure_reason   text
);
CREATE INDEX withdrawals_list ON wallet.withdrawals (project_id, mode, created_at DESC, id DESC);

-- Webhook addresses, per (project, mode). Secrets are AES-GCM sealed (bound to the row id).
CREATE TABLE wallet.webhook_endpoints (
    id                          text PRIMARY KEY,
    project_id                  text NOT NULL REFERENCES wallet.projects (id),
    mode                        text NOT NULL CHECK (mode IN ('test', 'live')),
    url                         text NOT NULL,
    events                      text[] NOT NULL,
    status                      text NOT NULL CHECK (status IN ('active', 'paused')),
    secret_sealed               text NOT NULL,
    previous_secret_sealed      text,
    previous_secret_expires_at  timestamptz,
    consecutive_failures        integer NOT NULL DEFAULT 0,
    created_at                  timestamptz NOT NULL,
    paused_at                   timestamptz
);
CREATE INDEX webhook_endpoints_project ON wallet.webhook_endpoints (project_id, mode);

-- The outbox: every event once, with the exact bytes every attempt sends.
CREATE TABLE wallet.events (
    id         text PRIMARY KEY,
    project_id text NOT NULL REFERENCES wallet.projects (id),
    mode       text NOT NULL,
    type       text NOT NULL,
    object_id  text,
    body       bytea NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX events_project ON wallet.events (project_id, mode, created_at DESC);

CREATE TABLE wallet.webhook_deliveries (
    id              text PRIMARY KEY,
    seq             bigserial NOT NULL UNIQUE,
    event_id        text NOT NULL REFERENCES wallet.events (id),
    endpoint_id     text NOT NULL REFERENCES wallet.webhook_endpoints (id) ON DELETE CASCADE,
    status          text NOT NULL CHECK (status IN ('pending', 'delivered', 'abandoned')),
    attempt_count   integer NOT NULL DEFAULT 0,
    cycle_attempts  integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz,
    lease_until     timestamptz,
    created_at      timestamptz NOT NULL,
    last_attempt_at timestamptz,
    delivered_at    timestamptz
);
CREATE INDEX webhook_deliveries_due ON wallet.webhook_deliveries (next_attempt_at, seq) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON wallet.webhook_deliveries (endpoint_id, seq DESC);

CREATE TABLE wallet.webhook_attempts (
    id               text PRIMARY KEY,
    delivery_id      text NOT NULL REFERENCES wallet.webhook_deliveries (id) ON DELETE CASCADE,
    attempt_number   integer NOT NULL,
    attempted_at     timestamptz NOT NULL,
    success          boolean NOT NULL,
    status_code      integer,
    latency_ms       bigint NOT NULL,
    error            text,
    response_excerpt text,
    UNIQUE (delivery_id, attempt_number)
);
