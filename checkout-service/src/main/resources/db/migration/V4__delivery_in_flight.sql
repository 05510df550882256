-- The claim counts each endpoint's deliveries in flight (leased): an index on those rows only, so it never walks
-- the finished ones.
CREATE INDEX webhook_deliveries_in_flight ON checkout.webhook_deliveries (endpoint_id) WHERE status = 'pending' AND lease_until IS NOT NULL;
