-- rows for the pgbench read script (ids pgbr_1 .. pgbr_N; never seen by the API run, which reads its own ids)
INSERT INTO wallet.payments (id, project_id, mode, status, amount, fee, total, currency, reference, page_token, created_at, expires_at)
  SELECT 'pgbr_' || g, :'owner', 'test', 'created', 1000, 25, 1025, 'HTG', 'r' || g, 'wpt_pgbr_' || g, now(), now() + interval '30 minutes'
  FROM generate_series(1, :nids) g ON CONFLICT DO NOTHING;
