-- The kyc outbox moves into the one outbox of service-support (V40): events, deliveries, attempts and recovered
-- windows keep their ids and history. A destination is an application's webhook address of one mode: the live one
-- keeps the application id, the test one is "<application>/test" (what its secret was always sealed to), so the
-- per-mode choice of address lives in the view, not in the engine.
CREATE VIEW kyc.outbox_destinations AS
SELECT a.id, a.id AS owner_id, 'live'::text AS mode, a.webhook_url AS url, NULL::text[] AS events,
       a.webhook_secret_sealed AS secret, a.previous_secret_sealed AS previous_secret, a.previous_secret_expires_at,
       a.id AS secret_bound_to, a.webhook_url IS NOT NULL AS receives, true AS open, 0 AS consecutive_failures,
       NULL::timestamptz AS paused_at, a.created_at
FROM kyc.applications a
UNION ALL
SELECT a.id || '/test', a.id, 'test', a.test_webhook_url, NULL::text[],
       a.test_webhook_secret_sealed, a.test_previous_secret_sealed, a.test_previous_secret_expires_at,
       a.id || '/test', a.test_webhook_url IS NOT NULL, true, 0, NULL::timestamptz, a.created_at
FROM kyc.applications a;

INSERT INTO kyc.outbox_events (id, owner_id, mode, type, object_id, body, created_at)
SELECT id, application_id, mode, type, verification_id, convert_to(payload, 'UTF8'), created_at FROM kyc.events;

-- attempts counted the attempts of the current retry cycle (a resend set it back to 0): it becomes the cycle's
-- failures, and the total is counted from the attempt rows.
INSERT INTO kyc.outbox_deliveries (id, event_id, destination_id, status, attempts, cycle_failures,
    next_attempt_at, lease_until, last_attempt_at, last_status_code, last_error, delivered_at, dead_at, created_at, updated_at)
SELECT d.id, d.event_id, CASE WHEN ev.mode = 'test' THEN d.application_id || '/test' ELSE d.application_id END,
       d.status, COALESCE(made.n, 0), CASE WHEN d.status = 'delivered' THEN 0 ELSE d.attempts END,
       d.next_attempt_at, d.lease_until, made.last_at, d.last_status, d.last_error, d.delivered_at, d.dead_at,
       d.created_at, COALESCE(made.last_at, d.created_at)
FROM kyc.deliveries d
JOIN kyc.events ev ON ev.id = d.event_id
LEFT JOIN LATERAL (SELECT count(*) AS n, max(a.attempted_at) AS last_at FROM kyc.delivery_attempts a
                   WHERE a.delivery_id = d.id) made ON true
ORDER BY d.created_at, d.id;

INSERT INTO kyc.outbox_attempts (delivery_id, attempt_number, attempted_at, url, success, status_code, latency_ms, error,
    response_excerpt)
SELECT delivery_id, attempt_number, attempted_at, url, success, status_code, latency_ms, error, response_excerpt
FROM kyc.delivery_attempts ORDER BY id;

-- A window was kept as "<application>/<mode>".
INSERT INTO kyc.outbox_recoveries (destination_id, since, until, resent, created_at)
SELECT CASE WHEN address LIKE '%/test' THEN address ELSE left(address, length(address) - strpos(reverse(address), '/')) END,
       since, until, resent, created_at
FROM kyc.delivery_recoveries ON CONFLICT DO NOTHING;

DROP TABLE kyc.delivery_recoveries;
DROP TABLE kyc.delivery_attempts;
DROP TABLE kyc.deliveries;
DROP TABLE kyc.events;
