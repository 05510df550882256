-- The merchant dashboard (issue 15), this service's part (the shared tables: service-support db/dashboard).
CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint_created ON wallet.webhook_deliveries (endpoint_id, created_at);
