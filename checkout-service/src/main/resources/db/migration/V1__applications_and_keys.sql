CREATE TABLE checkout.applications (
    id          text PRIMARY KEY,
    name        text NOT NULL,
    created_at  timestamptz NOT NULL
);

CREATE TABLE checkout.api_keys (
    id              text PRIMARY KEY,
    application_id  text NOT NULL REFERENCES checkout.applications (id),
    key_hash        text NOT NULL UNIQUE,
    key_hint        text NOT NULL,
    mode            text NOT NULL CHECK (mode IN ('test', 'live')),
    scopes          text[] NOT NULL,
    created_at      timestamptz NOT NULL,
    revoked_at      timestamptz
);
CREATE INDEX api_keys_application ON checkout.api_keys (application_id);

CREATE TABLE checkout.idempotency_keys (
    owner_id        text NOT NULL,
    mode            text NOT NULL,
    idempotency_key text NOT NULL,
    request_hash    text NOT NULL,
    response_status integer,
    response_body   text,
    created_at      timestamptz NOT NULL,
    PRIMARY KEY (owner_id, mode, idempotency_key)
);
CREATE INDEX idempotency_keys_created ON checkout.idempotency_keys (created_at);
