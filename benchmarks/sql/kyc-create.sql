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
INSERT INTO kyc.outbox_events (id, owner_id, mode, type, object_id, body, created_at)
  VALUES ('evt_pgb_' || :client_id::text || '_' || :r::text, :owner, 'test', 'verification.created', 'pgb_' || :client_id::text || '_' || :r::text,
          convert_to(repeat('x', 700), 'UTF8'), now());
INSERT INTO kyc.outbox_deliveries (id, event_id, destination_id, status, next_attempt_at, created_at, updated_at)
  SELECT 'whd_' || md5('evt_pgb_' || :client_id::text || '_' || :r::text || t.id), 'evt_pgb_' || :client_id::text || '_' || :r::text, t.id, 'pending', now(), now(), now()
  FROM kyc.outbox_destinations t WHERE t.owner_id = :owner AND t.mode = 'test' AND t.receives
  AND (t.events IS NULL OR 'verification.created' = ANY (t.events));
UPDATE kyc.idempotency_keys SET response_status = 200, response_body = repeat('y', 800)
  WHERE owner_id = :owner AND mode = 'test' AND idempotency_key = 'pgb-' || :client_id::text || '-' || :r::text;
END;
