-- An endpoint receives its events pushed to its url, or pulled from the event feed (no url, never pushed).
ALTER TABLE checkout.webhook_endpoints
    ADD COLUMN delivery text NOT NULL DEFAULT 'push' CHECK (delivery IN ('push', 'pull')),
    ALTER COLUMN url DROP NOT NULL,
    ADD CONSTRAINT webhook_endpoints_url_when_pushed CHECK ((delivery = 'push') = (url IS NOT NULL));

-- delivery is null once the endpoint is deleted: the feed signs with live endpoints only.
CREATE OR REPLACE VIEW checkout.outbox_destinations AS
SELECT id, application_id AS owner_id, mode, url, events, secret_sealed AS secret,
       previous_secret_sealed AS previous_secret, previous_secret_expires_at, id AS secret_bound_to,
       status = 'enabled' AND delivery = 'push' AS receives, status = 'enabled' AS open, 0 AS consecutive_failures,
       NULL::timestamptz AS paused_at, created_at, CASE WHEN status = 'enabled' THEN delivery END AS delivery
FROM checkout.webhook_endpoints;
