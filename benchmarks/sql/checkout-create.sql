-- pgbench: the writes of one POST /api/v1/payment_intents with an Idempotency-Key (checkout-service).
\set r random(1, 1000000000000)
BEGIN;
INSERT INTO checkout.idempotency_keys (owner_id, mode, idempotency_key, request_hash, created_at)
  VALUES (:owner, 'test', 'pgb-' || :client_id::text || '-' || :r::text, md5(:r::text) || md5(:client_id::text), now()) ON CONFLICT DO NOTHING;
INSERT INTO checkout.payment_intents (id, application_id, mode, status, amount, amount_received, amount_refunded, currency,
    capture_method, session_id, created_at, expires_at, updated_at)
  VALUES ('pgb_' || :client_id::text || '_' || :r::text, :owner, 'test', 'requires_payment_method', 10.000000, 0, 0, 'HTG', 'automatic',
          'pgbcs_' || :client_id::text || '_' || :r::text, now(), now() + interval '1 hour', now());
INSERT INTO checkout.outbox_events (id, owner_id, mode, type, object_id, body, created_at)
  VALUES ('evt_pgb_' || :client_id::text || '_' || :r::text, :owner, 'test', 'payment_intent.created', 'pgb_' || :client_id::text || '_' || :r::text,
          convert_to(repeat('x', 330), 'UTF8'), now());
INSERT INTO checkout.outbox_deliveries (id, event_id, destination_id, status, next_attempt_at, created_at, updated_at)
  SELECT 'whd_' || md5('evt_pgb_' || :client_id::text || '_' || :r::text || t.id), 'evt_pgb_' || :client_id::text || '_' || :r::text, t.id, 'pending', now(), now(), now()
  FROM checkout.outbox_destinations t WHERE t.owner_id = :owner AND t.mode = 'test' AND t.receives
  AND (t.events IS NULL OR 'payment_intent.created' = ANY (t.events));
UPDATE checkout.idempotency_keys SET response_status = 201, response_body = repeat('y', 560)
  WHERE owner_id = :owner AND mode = 'test' AND idempotency_key = 'pgb-' || :client_id::text || '-' || :r::text;
END;
