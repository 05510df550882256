-- The merchant dashboard, this service's part (the shared tables: service-support db/dashboard and db/outbox).
-- The index its delivery pages used is the outbox's own now (outbox_deliveries_destination).
SELECT 1;
