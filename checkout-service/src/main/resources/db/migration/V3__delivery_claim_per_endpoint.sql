-- The claim takes the oldest due deliveries of each endpoint (a bounded number per endpoint), so it reads
-- deliveries by endpoint in due order.
CREATE INDEX webhook_deliveries_endpoint_due ON checkout.webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending';
