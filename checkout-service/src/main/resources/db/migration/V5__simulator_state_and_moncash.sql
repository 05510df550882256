-- The test-mode simulator's own memory (the rail's side): what it was asked and what it answers. In the database so
-- that a restart or another replica settles, captures and refunds what one replica authorized.
CREATE TABLE checkout.simulator_operations (
    attempt_id            text PRIMARY KEY,
    kind                  text NOT NULL,
    final_status          text NOT NULL CHECK (final_status IN ('SUCCEEDED', 'FAILED')),
    pending               boolean NOT NULL DEFAULT false,
    lookups_before_answer integer NOT NULL DEFAULT 0
);

-- A rail that collects on its own page (MonCash): where the customer pays, until when, and what the rail calls the
-- payment once collected. A reversal names the attempt whose money it returns.
ALTER TABLE checkout.payment_attempts
    ADD COLUMN redirect_url         text,
    ADD COLUMN redirect_expires_at  timestamptz,
    ADD COLUMN provider_reference   text,
    ADD COLUMN reverses_attempt_id  text;
