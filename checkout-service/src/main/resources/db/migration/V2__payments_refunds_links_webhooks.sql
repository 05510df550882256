CREATE TABLE checkout.payment_intents (
    id                  text PRIMARY KEY,
    application_id      text NOT NULL REFERENCES checkout.applications (id),
    mode                text NOT NULL CHECK (mode IN ('test', 'live')),
    status              text NOT NULL,
    amount              numeric(20,6) NOT NULL CHECK (amount > 0),
    amount_received     numeric(20,6) NOT NULL DEFAULT 0,
    amount_refunded     numeric(20,6) NOT NULL DEFAULT 0,
    currency            text NOT NULL,
    capture_method      text NOT NULL CHECK (capture_method IN ('automatic', 'manual')),
    description         text,
    external_reference  text,
    return_url          text,
    session_id          text NOT NULL UNIQUE,
    payment_link_id     text,
    payment_method      text,
    last_error_code     text,
    last_error_message  text,
    created_at          timestamptz NOT NULL,
    expires_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL,
    CHECK (amount_refunded <= amount_received),
    CHECK (amount_received <= amount)
);
CREATE INDEX payment_intents_list ON checkout.payment_intents (application_id, mode, created_at DESC, id DESC);
CREATE INDEX payment_intents_expiry ON checkout.payment_intents (expires_at) WHERE status IN ('requires_payment_method', 'requires_action');

-- One row per call to the payment rail; its id is the provider's idempotency key.
CREATE TABLE checkout.payment_attempts (
    id                  text PRIMARY KEY,
    payment_intent_id   text NOT NULL REFERENCES checkout.payment_intents (id),
    kind                text NOT NULL CHECK (kind IN ('authorize', 'capture', 'release', 'reversal')),
    provider            text NOT NULL,
    payment_method      text NOT NULL,
    amount              numeric(20,6) NOT NULL,
    status              text NOT NULL CHECK (status IN ('started', 'succeeded', 'failed', 'pending', 'unknown')),
    scenario            text,
    failure_code        text,
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL
);
CREATE INDEX payment_attempts_open ON checkout.payment_attempts (status) WHERE status IN ('started', 'pending', 'unknown');
CREATE INDEX payment_attempts_intent ON checkout.payment_attempts (payment_intent_id);

CREATE TABLE checkout.refunds (
    id                  text PRIMARY KEY,
    application_id      text NOT NULL,
    mode                text NOT NULL,
    payment_intent_id   text NOT NULL REFERENCES checkout.payment_intents (id),
    amount              numeric(20,6) NOT NULL CHECK (amount > 0),
    currency            text NOT NULL,
    status              text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    reason              text,
    failure_reason      text,
    provider            text NOT NULL,
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL
);
CREATE INDEX refunds_intent ON checkout.refunds (payment_intent_id);
CREATE INDEX refunds_pending ON checkout.refunds (created_at) WHERE status = 'pending';

CREATE TABLE checkout.payment_links (
    id                  text PRIMARY KEY,
    application_id      text NOT NULL REFERENCES checkout.applications (id),
    mode                text NOT NULL,
    amount              numeric(20,6) NOT NULL CHECK (amount > 0),
    currency            text NOT NULL,
    description         text,
    external_reference  text,
    return_url          text,
    active              boolean NOT NULL,
    created_at          timestamptz NOT NULL
);

CREATE TABLE checkout.webhook_endpoints (
    id                  text PRIMARY KEY,
    application_id      text NOT NULL REFERENCES checkout.applications (id),
    mode                text NOT NULL,
    url                 text NOT NULL,
    events              text[] NOT NULL,
    secret_sealed       text NOT NULL,
    status              text NOT NULL CHECK (status IN ('enabled', 'deleted')),
    created_at          timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_app ON checkout.webhook_endpoints (application_id, mode) WHERE status = 'enabled';

-- Transactional outbox: the event row is written in the transaction of the change it reports.
CREATE TABLE checkout.events (
    id                  text PRIMARY KEY,
    application_id      text NOT NULL,
    mode                text NOT NULL,
    type                text NOT NULL,
    object_id           text NOT NULL,
    payload             text NOT NULL,
    created_at          timestamptz NOT NULL
);
CREATE INDEX events_list ON checkout.events (application_id, mode, created_at DESC, id DESC);

CREATE TABLE checkout.webhook_deliveries (
    id                  text PRIMARY KEY,
    event_id            text NOT NULL REFERENCES checkout.events (id),
    endpoint_id         text NOT NULL REFERENCES checkout.webhook_endpoints (id),
    status              text NOT NULL CHECK (status IN ('pending', 'succeeded', 'dead')),
    failed_attempts     integer NOT NULL DEFAULT 0,
    next_attempt_at     timestamptz,
    lease_until         timestamptz,
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL,
    UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON checkout.webhook_deliveries (next_attempt_at) WHERE status = 'pending';

CREATE TABLE checkout.webhook_attempts (
    id                  bigserial PRIMARY KEY,
    delivery_id         text NOT NULL REFERENCES checkout.webhook_deliveries (id),
    attempt_number      integer NOT NULL,
    attempted_at        timestamptz NOT NULL,
    success             boolean NOT NULL,
    status_code         integer,
    latency_ms          bigint NOT NULL,
    error               text,
    response_excerpt    text
);
CREATE INDEX webhook_attempts_delivery ON checkout.webhook_attempts (delivery_id);
