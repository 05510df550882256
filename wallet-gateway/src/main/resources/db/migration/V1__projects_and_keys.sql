CREATE TABLE wallet.projects (
    id          text PRIMARY KEY,
    name        text NOT NULL,
    created_at  timestamptz NOT NULL
);

CREATE TABLE wallet.api_keys (
    id          text PRIMARY KEY,
    project_id  text NOT NULL REFERENCES wallet.projects (id),
    key_hash    text NOT NULL UNIQUE,
    key_hint    text NOT NULL,
    mode        text NOT NULL CHECK (mode IN ('test', 'live')),
    permissions text[] NOT NULL,
    created_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);
CREATE INDEX api_keys_project ON wallet.api_keys (project_id);

CREATE TABLE wallet.idempotency_keys (
    owner_id        text NOT NULL,
    mode            text NOT NULL,
    idempotency_key text NOT NULL,
    request_hash    text NOT NULL,
    response_status integer,
    response_body   text,
    created_at      timestamptz NOT NULL,
    PRIMARY KEY (owner_id, mode, idempotency_key)
);
CREATE INDEX idempotency_keys_created ON wallet.idempotency_keys (created_at);
