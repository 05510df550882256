-- pgbench: the writes of one POST /api/v1/payment_intents with an Idempotency-Key (checkout-service).
\set r random(1, 1000000000000)
BEGIN;
INSERT INTO checkout.idempotency_keys (owner_id, mode, idempotency_key, request_hash, created_at)
  VALUES (:owner, 'test', 'pgb-' || :client_id::text || '-' || :r::text, md5(:r::text) || md5(:client_id::text), now()) ON CONFLICT DO NOTHING;
INSERT INTO checkout.payment_intents (id, application_id, mode, status, amount, amount_received, amount_refunded, currency,
    capture_method, session_id, created_at, expires_at, updated_at)
  VALUES ('pgb_' || :client_id::text || '_' || :r::text, :owner, 'test', 'requires_payment_method', 10.000000, 0, 0, 'HTG', 'automatic',
          'pgbcs_' || :client_id::text || '_' || :r::text, now(), now() + interval '1 hour', now());
INSERT INTO checkout.events (id, application_id, mode, type, object_id, payload, created_at)
  VALUES ('evt_pgb_' || :client_id::text || '_' || :r::text, :owner, 'test', 'payment_intent.created', 'pgb_' || :client_id::text || '_' || :r::text,
          repeat('x', 330), now());
INSERT INTO checkout.webhook_deliveries (id, event_id, endpoint_id, status, failed_attempts, next_attempt_at, created_at, updated_at)
  SELECT 'whd_' || md5('evt_pgb_' || :client_id::text || '_' || :r::text || e.id), 'evt_pgb_' || :client_id::text || '_' || :r::text, e.id, 'pending', 0, now(), now(), now()
  FROM checkout.webhook_endpoints e WHERE e.application_id = :owner AND e.mode = 'test' AND e.status = 'enabled'
  AND 'payment_intent.created' = ANY (e.events);
UPDATE checkout.idempotency_keys SET response_status = 201, response_body = repeat('y', 560)
  WHERE owner_id = :owner AND mode = 'test' AND idempotency_key = 'pgb-' || :client_id::text || '-' || :r::text;
END;
