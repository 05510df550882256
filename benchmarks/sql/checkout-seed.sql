INSERT INTO checkout.payment_intents (id, application_id, mode, status, amount, amount_received, amount_refunded, currency,
    capture_method, session_id, created_at, expires_at, updated_at)
  SELECT 'pgbr_' || g, :'owner', 'test', 'requires_payment_method', 10.000000, 0, 0, 'HTG', 'automatic', 'pgbrcs_' || g,
         now(), now() + interval '1 hour', now()
  FROM generate_series(1, :nids) g ON CONFLICT DO NOTHING;
