-- The gateway's outbox moves into the one outbox of service-support (V40): events, deliveries, attempts and
-- recovered windows keep their ids, order (seq) and history; abandoned becomes the outbox's dead (the API still says
-- abandoned). An address's status follows paused_at, which the outbox's pause rule sets through the view.
UPDATE wallet.webhook_endpoints SET paused_at = COALESCE(paused_at, created_at) WHERE status = 'paused';
UPDATE wallet.webhook_endpoints SET paused_at = NULL WHERE status <> 'paused';
ALTER TABLE wallet.webhook_endpoints DROP COLUMN status;
ALTER TABLE wallet.webhook_endpoints ADD COLUMN status text NOT NULL
    GENERATED ALWAYS AS (CASE WHEN paused_at IS NULL THEN 'active' ELSE 'paused' END) STORED;

CREATE VIEW wallet.outbox_destinations AS
SELECT id, project_id AS owner_id, mode, url, events, secret_sealed AS secret, previous_secret_sealed AS previous_secret,
       previous_secret_expires_at, id AS secret_bound_to, true AS receives, paused_at IS NULL AS open,
       consecutive_failures, paused_at, created_at
FROM wallet.webhook_endpoints;

INSERT INTO wallet.outbox_events (id, owner_id, mode, type, object_id, body, created_at)
SELECT id, project_id, mode, type, object_id, body, created_at FROM wallet.events;

INSERT INTO wallet.outbox_deliveries (id, seq, event_id, destination_id, status, attempts, cycle_failures,
    next_attempt_at, lease_until, last_attempt_at, last_status_code, last_error, delivered_at, dead_at, created_at, updated_at)
SELECT d.id, d.seq, d.event_id, d.endpoint_id, CASE d.status WHEN 'abandoned' THEN 'dead' ELSE d.status END,
       d.attempt_count, d.cycle_attempts, d.next_attempt_at, d.lease_until, d.last_attempt_at,
       last.status_code, last.error, d.delivered_at,
       CASE WHEN d.status = 'abandoned' THEN COALESCE(d.last_attempt_at, d.created_at) END,
       d.created_at, COALESCE(d.last_attempt_at, d.created_at)
FROM wallet.webhook_deliveries d
LEFT JOIN LATERAL (SELECT a.status_code, a.error FROM wallet.webhook_attempts a WHERE a.delivery_id = d.id
                   ORDER BY a.attempt_number DESC LIMIT 1) last ON true;
SELECT setval(pg_get_serial_sequence('wallet.outbox_deliveries', 'seq'),
              COALESCE((SELECT max(seq) FROM wallet.outbox_deliveries), 0) + 1, false);

INSERT INTO wallet.outbox_attempts (delivery_id, attempt_number, attempted_at, success, status_code, latency_ms, error,
    response_excerpt)
SELECT delivery_id, attempt_number, attempted_at, success, status_code, latency_ms, error, response_excerpt
FROM wallet.webhook_attempts ORDER BY attempted_at, attempt_number;

-- A window was kept as "<address>/<mode>".
INSERT INTO wallet.outbox_recoveries (destination_id, since, until, resent, created_at)
SELECT left(address, length(address) - strpos(reverse(address), '/')), since, until, resent, created_at
FROM wallet.delivery_recoveries ON CONFLICT DO NOTHING;

DROP TABLE wallet.delivery_recoveries;
DROP TABLE wallet.webhook_attempts;
DROP TABLE wallet.webhook_deliveries;
DROP TABLE wallet.events;
