-- pgbench: the read of GET /api/v1/payments/{id}: one primary-key lookup scoped to the project and mode.
\set k random(1, :nids)
SELECT * FROM wallet.payments WHERE id = 'pgbr_' || :k::text AND project_id = :owner AND mode = 'test';
