-- A gateway database at V5 (before the one outbox): a paused and an active address, three events, a delivered,
-- an abandoned and a waiting delivery with their attempts, and a recovered window.
INSERT INTO wallet.projects (id, name, created_at) VALUES ('prj_m', 'Migration', '2026-01-01T00:00:00Z');
INSERT INTO wallet.webhook_endpoints (id, project_id, mode, url, events, status, secret_sealed, consecutive_failures, created_at, paused_at)
VALUES ('we_paused', 'prj_m', 'test', 'https://a.example/hook', '{payment.succeeded}', 'paused', 'sealed-a', 20, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z'),
       ('we_active', 'prj_m', 'live', 'https://b.example/hook', '{payment.succeeded,payment.failed}', 'active', 'sealed-b', 0, '2026-01-01T00:00:00Z', NULL);
INSERT INTO wallet.events (id, project_id, mode, type, object_id, body, created_at)
VALUES ('evt_1', 'prj_m', 'live', 'payment.succeeded', 'pay_1', convert_to('{"id":"evt_1"}', 'UTF8'), '2026-01-03T00:00:00Z'),
       ('evt_2', 'prj_m', 'live', 'payment.failed', 'pay_2', convert_to('{"id":"evt_2"}', 'UTF8'), '2026-01-03T00:01:00Z'),
       ('evt_3', 'prj_m', 'test', 'payment.succeeded', 'pay_3', convert_to('{"id":"evt_3"}', 'UTF8'), '2026-01-03T00:02:00Z');
INSERT INTO wallet.webhook_deliveries (id, seq, event_id, endpoint_id, status, attempt_count, cycle_attempts, next_attempt_at,
    created_at, last_attempt_at, delivered_at)
VALUES ('whd_1', 7, 'evt_1', 'we_active', 'delivered', 2, 1, NULL, '2026-01-03T00:00:00Z', '2026-01-03T00:01:00Z', '2026-01-03T00:01:00Z'),
       ('whd_2', 8, 'evt_2', 'we_active', 'abandoned', 3, 3, NULL, '2026-01-03T00:01:00Z', '2026-01-04T00:00:00Z', NULL),
       ('whd_3', 9, 'evt_3', 'we_paused', 'pending', 1, 1, '2026-01-03T00:10:00Z', '2026-01-03T00:02:00Z', '2026-01-03T00:03:00Z', NULL);
INSERT INTO wallet.webhook_attempts (id, delivery_id, attempt_number, attempted_at, success, status_code, latency_ms, error, response_excerpt)
VALUES ('wha_1', 'whd_1', 1, '2026-01-03T00:00:01Z', false, 500, 12, NULL, 'oops'),
       ('wha_2', 'whd_1', 2, '2026-01-03T00:01:00Z', true, 200, 8, NULL, 'ok'),
       ('wha_3', 'whd_2', 1, '2026-01-03T00:01:01Z', false, 502, 10, NULL, NULL),
       ('wha_4', 'whd_2', 2, '2026-01-03T00:02:01Z', false, 503, 10, NULL, NULL),
       ('wha_5', 'whd_2', 3, '2026-01-04T00:00:00Z', false, NULL, 10000, 'timeout', NULL),
       ('wha_6', 'whd_3', 1, '2026-01-03T00:03:00Z', false, 410, 5, NULL, 'gone');
CREATE TABLE IF NOT EXISTS wallet.delivery_recoveries (address text NOT NULL, since timestamptz NOT NULL,
    until timestamptz NOT NULL, resent integer NOT NULL, created_at timestamptz NOT NULL, PRIMARY KEY (address, since, until));
INSERT INTO wallet.delivery_recoveries (address, since, until, resent, created_at)
VALUES ('we_active/live', '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z', 1, '2026-01-05T00:00:00Z');
