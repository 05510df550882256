INSERT INTO kyc.verifications (id, application_id, mode, external_user_id, status, level, country, document_types, locale,
    page_token_hash, attempts, reason_codes, created_at, updated_at, expires_at)
  SELECT 'pgbr_' || g, :'owner', 'test', 'u' || g, 'created', 'standard', 'HT', '{passport}', 'fr', md5('pgbr' || g),
         1, '{}', now(), now(), now() + interval '24 hours'
  FROM generate_series(1, :nids) g ON CONFLICT DO NOTHING;
