-- The merchant dashboard (issue 15), this service's part (the shared tables: service-support db/dashboard).
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
ALTER TABLE checkout.api_logs ADD COLUMN IF NOT EXISTS request_body text;
CREATE INDEX IF NOT EXISTS api_logs_owner ON checkout.api_logs (owner_id, mode, seq DESC);
CREATE INDEX IF NOT EXISTS api_logs_request ON checkout.api_logs (request_id);
-- Rotation of an endpoint's secret: the previous secret signs too until the overlap ends.
ALTER TABLE checkout.webhook_endpoints ADD COLUMN IF NOT EXISTS previous_secret_sealed text,
    ADD COLUMN IF NOT EXISTS previous_secret_expires_at timestamptz;
