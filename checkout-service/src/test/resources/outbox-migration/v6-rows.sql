-- A checkout database at V6 (before the one outbox): an enabled and a deleted endpoint, two events, a succeeded and
-- a dead delivery with their attempts, and a recovered window.
INSERT INTO checkout.applications (id, name, created_at) VALUES ('app_m', 'Migration', '2026-01-01T00:00:00Z');
INSERT INTO checkout.webhook_endpoints (id, application_id, mode, url, events, secret_sealed, status, created_at)
VALUES ('pay_we_on', 'app_m', 'test', 'https://a.example/hook', '{payment_intent.succeeded}', 'sealed-a', 'enabled', '2026-01-01T00:00:00Z'),
       ('pay_we_off', 'app_m', 'test', 'https://b.example/hook', '{payment_intent.succeeded}', 'sealed-b', 'deleted', '2026-01-01T00:00:00Z');
INSERT INTO checkout.events (id, application_id, mode, type, object_id, payload, created_at)
VALUES ('evt_1', 'app_m', 'test', 'payment_intent.succeeded', 'pi_1', '{"id":"evt_1","é":"ü"}', '2026-01-03T00:00:00Z'),
       ('evt_2', 'app_m', 'test', 'payment_intent.succeeded', 'pi_2', '{"id":"evt_2"}', '2026-01-03T00:01:00Z');
INSERT INTO checkout.webhook_deliveries (id, event_id, endpoint_id, status, failed_attempts, next_attempt_at, created_at, updated_at)
VALUES ('whd_1', 'evt_1', 'pay_we_on', 'succeeded', 0, NULL, '2026-01-03T00:00:00Z', '2026-01-03T00:00:02Z'),
       ('whd_2', 'evt_2', 'pay_we_off', 'dead', 2, NULL, '2026-01-03T00:01:00Z', '2026-01-03T01:00:00Z');
INSERT INTO checkout.webhook_attempts (delivery_id, attempt_number, attempted_at, success, status_code, latency_ms, error, response_excerpt)
VALUES ('whd_1', 1, '2026-01-03T00:00:02Z', true, 204, 9, NULL, NULL),
       ('whd_2', 1, '2026-01-03T00:01:01Z', false, 500, 9, NULL, 'no'),
       ('whd_2', 2, '2026-01-03T01:00:00Z', false, NULL, 10000, 'timeout', NULL);
CREATE TABLE IF NOT EXISTS checkout.delivery_recoveries (address text NOT NULL, since timestamptz NOT NULL,
    until timestamptz NOT NULL, resent integer NOT NULL, created_at timestamptz NOT NULL, PRIMARY KEY (address, since, until));
INSERT INTO checkout.delivery_recoveries (address, since, until, resent, created_at)
VALUES ('pay_we_on/test', '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z', 0, '2026-01-05T00:00:00Z');
