-- A client application's columns beyond the shared tenancy tables (service-support db/tenancy V1); until this split
-- they were created with them in V1__kyc.sql, and TenancyUpgrade records this migration as applied where that ran.
ALTER TABLE kyc.applications
    ADD COLUMN return_urls                 text[] NOT NULL,
    ADD COLUMN webhook_url                 text,
    ADD COLUMN webhook_secret_sealed       text NOT NULL,
    ADD COLUMN previous_secret_sealed      text,
    ADD COLUMN previous_secret_expires_at  timestamptz,
    ADD COLUMN revoked_at                  timestamptz;

-- Verifications
CREATE TABLE kyc.verifications (
    id                  text PRIMARY KEY,
    application_id      text NOT NULL REFERENCES kyc.applications (id),
    mode                text NOT NULL CHECK (mode IN ('test', 'live')),
    external_user_id    text NOT NULL,
    status              text NOT NULL CHECK (status IN ('created', 'started', 'document_submitted', 'processing',
                            'retry_required', 'verified', 'rejected', 'unable_to_verify', 'expired', 'cancelled',
                            'technical_error')),
    level               text NOT NULL,
    country             text NOT NULL,
    document_types      text[] NOT NULL,
    document_type       text,
    return_url          text,
    locale              text NOT NULL,
    reference           text,
    metadata            text,
    page_token_hash     text NOT NULL UNIQUE,
    consented_at        timestamptz,
    attempts            integer NOT NULL DEFAULT 1,
    result              text,
    reason_code         text,
    reason_codes        text[] NOT NULL DEFAULT '{}',
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL,
    completed_at        timestamptz,
    verified_at         timestamptz,
    expires_at          timestamptz NOT NULL,
    images_erased_at    timestamptz
);
CREATE INDEX verifications_subject ON kyc.verifications (application_id, mode, external_user_id, created_at);
CREATE INDEX verifications_expiring ON kyc.verifications (expires_at)
    WHERE status IN ('created', 'started', 'document_submitted', 'retry_required');

-- Identity images: AES-256-GCM sealed, kept only until the decision
CREATE TABLE kyc.verification_images (
    verification_id text NOT NULL REFERENCES kyc.verifications (id),
    kind            text NOT NULL CHECK (kind IN ('document_front', 'document_back', 'selfie', 'mrz')),
    content_type    text NOT NULL,
    sealed          bytea NOT NULL,
    created_at      timestamptz NOT NULL,
    PRIMARY KEY (verification_id, kind)
);

CREATE TABLE kyc.subject_restrictions (
    application_id      text NOT NULL REFERENCES kyc.applications (id),
    external_user_id    text NOT NULL,
    reason              text,
    created_at          timestamptz NOT NULL,
    PRIMARY KEY (application_id, external_user_id)
);

-- Transactional outbox: events, one delivery per event and destination, every attempt
CREATE TABLE kyc.events (
    id              text PRIMARY KEY,
    application_id  text NOT NULL REFERENCES kyc.applications (id),
    mode            text NOT NULL,
    type            text NOT NULL,
    verification_id text NOT NULL,
    payload         text NOT NULL,
    created_at      timestamptz NOT NULL
);
CREATE INDEX events_verification ON kyc.events (verification_id, created_at);

CREATE TABLE kyc.deliveries (
    id              text PRIMARY KEY,
    event_id        text NOT NULL REFERENCES kyc.events (id),
    application_id  text NOT NULL REFERENCES kyc.applications (id),
    status          text NOT NULL CHECK (status IN ('pending', 'delivered', 'dead')),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz,
    lease_until     timestamptz,
    last_status     integer,
    last_error      text,
    created_at      timestamptz NOT NULL,
    delivered_at    timestamptz,
    dead_at         timestamptz
);
CREATE INDEX deliveries_due ON kyc.deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_application ON kyc.deliveries (application_id, status);

CREATE TABLE kyc.delivery_attempts (
    id                  bigserial PRIMARY KEY,
    delivery_id         text NOT NULL REFERENCES kyc.deliveries (id),
    attempt_number      integer NOT NULL,
    attempted_at        timestamptz NOT NULL,
    url                 text,
    success             boolean NOT NULL,
    status_code         integer,
    latency_ms          bigint NOT NULL,
    error               text,
    response_excerpt    text
);
CREATE INDEX delivery_attempts_delivery ON kyc.delivery_attempts (delivery_id);
