-- pgbench: the writes of one POST /api/v1/payments with an Idempotency-Key (wallet-gateway), one transaction:
-- idempotency row, payment, outbox event, deliveries INSERT ... SELECT (no endpoints subscribed: 0 rows, as
-- in the API run), idempotency response. :owner is the benchmark project.
\set r random(1, 1000000000000)
BEGIN;
INSERT INTO wallet.idempotency_keys (owner_id, mode, idempotency_key, request_hash, created_at)
  VALUES (:owner, 'test', 'pgb-' || :client_id::text || '-' || :r::text, md5(:r::text) || md5(:client_id::text), now()) ON CONFLICT DO NOTHING;
INSERT INTO wallet.payments (id, project_id, mode, status, amount, fee, total, currency, reference, page_token, created_at, expires_at)
  VALUES ('pgb_' || :client_id::text || '_' || :r::text, :owner, 'test', 'created', 1000, 25, 1025, 'HTG', 'r' || :r::text,
          'wpt_pgb_' || :client_id::text || '_' || :r::text, now(), now() + interval '30 minutes');
INSERT INTO wallet.outbox_events (id, owner_id, mode, type, object_id, body, created_at)
  VALUES ('evt_pgb_' || :client_id::text || '_' || :r::text, :owner, 'test', 'payment.created', 'pgb_' || :client_id::text || '_' || :r::text,
          convert_to(repeat('x', 420), 'UTF8'), now());
INSERT INTO wallet.outbox_deliveries (id, event_id, destination_id, status, next_attempt_at, created_at, updated_at)
  SELECT 'whd_' || md5('evt_pgb_' || :client_id::text || '_' || :r::text || t.id), 'evt_pgb_' || :client_id::text || '_' || :r::text, t.id, 'pending', now(), now(), now()
  FROM wallet.outbox_destinations t WHERE t.owner_id = :owner AND t.mode = 'test' AND t.receives
  AND (t.events IS NULL OR 'payment.created' = ANY (t.events));
UPDATE wallet.idempotency_keys SET response_status = 201, response_body = repeat('y', 480)
  WHERE owner_id = :owner AND mode = 'test' AND idempotency_key = 'pgb-' || :client_id::text || '-' || :r::text;
END;
