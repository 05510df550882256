-- Checkout's outbox moves into the one outbox of service-support (V40): events, deliveries, attempts and recovered
-- windows keep their ids and history; succeeded becomes the outbox's delivered (the API still says succeeded).
-- The rotation columns come first: the view shows them, and a new database gets them from R__dashboard only later.
ALTER TABLE checkout.webhook_endpoints ADD COLUMN IF NOT EXISTS previous_secret_sealed text,
    ADD COLUMN IF NOT EXISTS previous_secret_expires_at timestamptz;

CREATE VIEW checkout.outbox_destinations AS
SELECT id, application_id AS owner_id, mode, url, events, secret_sealed AS secret,
       previous_secret_sealed AS previous_secret, previous_secret_expires_at, id AS secret_bound_to,
       status = 'enabled' AS receives, status = 'enabled' AS open, 0 AS consecutive_failures,
       NULL::timestamptz AS paused_at, created_at
FROM checkout.webhook_endpoints;

INSERT INTO checkout.outbox_events (id, owner_id, mode, type, object_id, body, created_at)
SELECT id, application_id, mode, type, object_id, convert_to(payload, 'UTF8'), created_at FROM checkout.events;

INSERT INTO checkout.outbox_deliveries (id, event_id, destination_id, status, attempts, cycle_failures,
    next_attempt_at, lease_until, last_attempt_at, last_status_code, last_error, delivered_at, dead_at, created_at, updated_at)
SELECT d.id, d.event_id, d.endpoint_id, CASE d.status WHEN 'succeeded' THEN 'delivered' ELSE d.status END,
       COALESCE(last.attempt_number, 0), d.failed_attempts, d.next_attempt_at, d.lease_until,
       last.attempted_at, last.status_code, last.error,
       CASE WHEN d.status = 'succeeded' THEN COALESCE(last.attempted_at, d.updated_at) END,
       CASE WHEN d.status = 'dead' THEN d.updated_at END,
       d.created_at, d.updated_at
FROM checkout.webhook_deliveries d
LEFT JOIN LATERAL (SELECT a.attempt_number, a.attempted_at, a.status_code, a.error FROM checkout.webhook_attempts a
                   WHERE a.delivery_id = d.id ORDER BY a.attempt_number DESC, a.id DESC LIMIT 1) last ON true
ORDER BY d.created_at, d.id;

INSERT INTO checkout.outbox_attempts (delivery_id, attempt_number, attempted_at, success, status_code, latency_ms, error,
    response_excerpt)
SELECT delivery_id, attempt_number, attempted_at, success, status_code, latency_ms, error, response_excerpt
FROM checkout.webhook_attempts ORDER BY id;

-- A window was kept as "<endpoint>/<mode>".
INSERT INTO checkout.outbox_recoveries (destination_id, since, until, resent, created_at)
SELECT left(address, length(address) - strpos(reverse(address), '/')), since, until, resent, created_at
FROM checkout.delivery_recoveries ON CONFLICT DO NOTHING;

DROP TABLE checkout.delivery_recoveries;
DROP TABLE checkout.webhook_attempts;
DROP TABLE checkout.webhook_deliveries;
DROP TABLE checkout.events;
