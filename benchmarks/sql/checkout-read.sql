\set k random(1, :nids)
SELECT * FROM checkout.payment_intents WHERE id = 'pgbr_' || :k::text AND application_id = :owner AND mode = 'test';
