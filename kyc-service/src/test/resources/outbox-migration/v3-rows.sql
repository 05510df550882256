-- A kyc database at V3 (before the one outbox): an application with a live and a test address, a live event
-- delivered after a retry, a test event dead and resent once (the attempt numbers start over), a recovered window.
INSERT INTO kyc.applications (id, name, return_urls, webhook_url, webhook_secret_sealed, created_at, test_webhook_url,
    test_webhook_secret_sealed)
VALUES ('app_m', 'Migration', '{https://m.example/back}', 'https://live.example/hook', 'sealed-live', '2026-01-01T00:00:00Z',
        'https://test.example/hook', 'sealed-test');
INSERT INTO kyc.events (id, application_id, mode, type, verification_id, payload, created_at)
VALUES ('evt_l', 'app_m', 'live', 'verification.verified', 'ver_1', '{"id":"evt_l"}', '2026-01-03T00:00:00Z'),
       ('evt_t', 'app_m', 'test', 'verification.rejected', 'ver_2', '{"id":"evt_t"}', '2026-01-03T00:01:00Z');
INSERT INTO kyc.deliveries (id, event_id, application_id, status, attempts, next_attempt_at, last_status, last_error,
    created_at, delivered_at, dead_at)
VALUES ('whd_l', 'evt_l', 'app_m', 'delivered', 2, NULL, 200, NULL, '2026-01-03T00:00:00Z', '2026-01-03T00:01:00Z', NULL),
       ('whd_t', 'evt_t', 'app_m', 'dead', 1, NULL, 500, NULL, '2026-01-03T00:01:00Z', NULL, '2026-01-03T02:00:00Z');
INSERT INTO kyc.delivery_attempts (delivery_id, attempt_number, attempted_at, url, success, status_code, latency_ms)
VALUES ('whd_l', 1, '2026-01-03T00:00:01Z', 'https://live.example/hook', false, 503, 7),
       ('whd_l', 2, '2026-01-03T00:01:00Z', 'https://live.example/hook', true, 200, 7),
       ('whd_t', 1, '2026-01-03T00:01:01Z', 'https://test.example/hook', false, 500, 7),
       ('whd_t', 1, '2026-01-03T02:00:00Z', 'https://test.example/hook', false, 500, 7);
CREATE TABLE IF NOT EXISTS kyc.delivery_recoveries (address text NOT NULL, since timestamptz NOT NULL,
    until timestamptz NOT NULL, resent integer NOT NULL, created_at timestamptz NOT NULL, PRIMARY KEY (address, since, until));
INSERT INTO kyc.delivery_recoveries (address, since, until, resent, created_at)
VALUES ('app_m/test', '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z', 1, '2026-01-05T00:00:00Z'),
       ('app_m/live', '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z', 0, '2026-01-05T00:00:00Z');
