-- Each mode's event feed signs with a secret of its own, never with the push secret a receiver trusts (expand only:
-- nullable columns, the view keeps its columns). Backfilled in place: a mode without a URL keeps signing its feed with
-- the secret its readers hold today (sealed bound to the same id); a mode with a URL gets its feed secret when the URL
-- is removed. A mode with no feed secret has no feed (the release before this one made such applications).
ALTER TABLE kyc.applications
    ADD COLUMN feed_secret_sealed text,
    ADD COLUMN test_feed_secret_sealed text;

UPDATE kyc.applications SET feed_secret_sealed = webhook_secret_sealed WHERE webhook_url IS NULL;
UPDATE kyc.applications SET test_feed_secret_sealed = test_webhook_secret_sealed
WHERE test_webhook_url IS NULL AND test_webhook_secret_sealed IS NOT NULL;

CREATE OR REPLACE VIEW kyc.outbox_destinations AS
SELECT a.id, a.id AS owner_id, 'live'::text AS mode, a.webhook_url AS url, NULL::text[] AS events,
       CASE WHEN a.webhook_url IS NULL THEN a.feed_secret_sealed ELSE a.webhook_secret_sealed END AS secret,
       CASE WHEN a.webhook_url IS NULL THEN NULL ELSE a.previous_secret_sealed END AS previous_secret,
       CASE WHEN a.webhook_url IS NULL THEN NULL ELSE a.previous_secret_expires_at END AS previous_secret_expires_at,
       a.id AS secret_bound_to, a.webhook_url IS NOT NULL AS receives, true AS open, 0 AS consecutive_failures,
       NULL::timestamptz AS paused_at, a.created_at,
       CASE WHEN a.webhook_url IS NOT NULL THEN 'push' WHEN a.feed_secret_sealed IS NOT NULL THEN 'pull' END AS delivery
FROM kyc.applications a
UNION ALL
SELECT a.id || '/test', a.id, 'test', a.test_webhook_url, NULL::text[],
       CASE WHEN a.test_webhook_url IS NULL THEN a.test_feed_secret_sealed ELSE a.test_webhook_secret_sealed END,
       CASE WHEN a.test_webhook_url IS NULL THEN NULL ELSE a.test_previous_secret_sealed END,
       CASE WHEN a.test_webhook_url IS NULL THEN NULL ELSE a.test_previous_secret_expires_at END,
       a.id || '/test', a.test_webhook_url IS NOT NULL, true, 0, NULL::timestamptz, a.created_at,
       CASE WHEN a.test_webhook_url IS NOT NULL THEN 'push' WHEN a.test_feed_secret_sealed IS NOT NULL THEN 'pull' END
FROM kyc.applications a;
