-- The claim asks each address for its oldest pending delivery (and whether one is in flight): an index probe
-- per address instead of a scan of the whole backlog.
CREATE INDEX webhook_deliveries_endpoint_pending ON wallet.webhook_deliveries (endpoint_id, seq) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_in_flight ON wallet.webhook_deliveries (endpoint_id) WHERE status = 'pending' AND lease_until IS NOT NULL;
