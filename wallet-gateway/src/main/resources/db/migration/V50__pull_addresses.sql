-- An address receives its events pushed to its url, or pulled from the event feed (no url, never pushed or paused).
ALTER TABLE wallet.webhook_endpoints
    ADD COLUMN delivery text NOT NULL DEFAULT 'push' CHECK (delivery IN ('push', 'pull')),
    ALTER COLUMN url DROP NOT NULL,
    ADD CONSTRAINT webhook_endpoints_url_when_pushed CHECK ((delivery = 'push') = (url IS NOT NULL));

CREATE OR REPLACE VIEW wallet.outbox_destinations AS
SELECT id, project_id AS owner_id, mode, url, events, secret_sealed AS secret, previous_secret_sealed AS previous_secret,
       previous_secret_expires_at, id AS secret_bound_to, delivery = 'push' AS receives, paused_at IS NULL AS open,
       consecutive_failures, paused_at, created_at, delivery
FROM wallet.webhook_endpoints;
