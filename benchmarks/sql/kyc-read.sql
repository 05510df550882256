\set k random(1, :nids)
SELECT * FROM kyc.verifications WHERE id = 'pgbr_' || :k::text AND application_id = :owner AND mode = 'test';
