-- pgbench: the writes of one POST /api/v1/verifications (kyc-service): idempotency row, the application read,
-- verification, outbox event, deliveries INSERT ... SELECT (application without webhook_url: 0 rows), response.
\set r random(1, 1000000000000)
BEGIN;
INSERT INTO kyc.idempotency_keys (owner_id, mode, idempotency_key, request_hash, created_at)
  VALUES (:owner, 'test', 'pgb-' || :client_id::text || '-' || :r::text, md5(:r::text) || md5(:client_id::text), now()) ON CONFLICT DO NOTHING;
SELECT * FROM kyc.applications WHERE id = :owner;
INSERT INTO kyc.verifications (id, application_id, mode, external_user_id, status, level, country, document_types, locale,
    page_token_hash, attempts, reason_codes, created_at, updated_at, expires_at)
  VALUES ('pgb_' || :client_id::text || '_' || :r::text, :owner, 'test', 'u' || :r::text, 'created', 'standard', 'HT', '{passport,national_id}', 'fr',
          md5('t' || :client_id::text || '_' || :r::text) || md5(:r::text), 1, '{}', now(), now(), now() + interval '24 hours');
INSERT INTO kyc.events (id, application_id, mode, type, verification_id, payload, created_at)
  VALUES ('evt_pgb_' || :client_id::text || '_' || :r::text, :owner, 'test', 'verification.created', 'pgb_' || :client_id::text || '_' || :r::text,
          repeat('x', 700), now());
INSERT INTO kyc.deliveries (id, event_id, application_id, status, attempts, next_attempt_at, created_at)
  SELECT 'whd_pgb_' || :client_id::text || '_' || :r::text, 'evt_pgb_' || :client_id::text || '_' || :r::text, a.id, 'pending', 0, now(), now()
  FROM kyc.applications a WHERE a.id = :owner AND a.webhook_url IS NOT NULL;
UPDATE kyc.idempotency_keys SET response_status = 200, response_body = repeat('y', 800)
  WHERE owner_id = :owner AND mode = 'test' AND idempotency_key = 'pgb-' || :client_id::text || '-' || :r::text;
END;
