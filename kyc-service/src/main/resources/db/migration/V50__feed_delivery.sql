-- An application's address of a mode is pushed to while it has a URL; without one its events stay on the event feed
-- (pull), read with that mode's secret.
CREATE OR REPLACE VIEW kyc.outbox_destinations AS
SELECT a.id, a.id AS owner_id, 'live'::text AS mode, a.webhook_url AS url, NULL::text[] AS events,
       a.webhook_secret_sealed AS secret, a.previous_secret_sealed AS previous_secret, a.previous_secret_expires_at,
       a.id AS secret_bound_to, a.webhook_url IS NOT NULL AS receives, true AS open, 0 AS consecutive_failures,
       NULL::timestamptz AS paused_at, a.created_at,
       CASE WHEN a.webhook_url IS NULL THEN 'pull' ELSE 'push' END AS delivery
FROM kyc.applications a
UNION ALL
SELECT a.id || '/test', a.id, 'test', a.test_webhook_url, NULL::text[],
       a.test_webhook_secret_sealed, a.test_previous_secret_sealed, a.test_previous_secret_expires_at,
       a.id || '/test', a.test_webhook_url IS NOT NULL, true, 0, NULL::timestamptz, a.created_at,
       CASE WHEN a.test_webhook_url IS NULL THEN 'pull' ELSE 'push' END
FROM kyc.applications a;
