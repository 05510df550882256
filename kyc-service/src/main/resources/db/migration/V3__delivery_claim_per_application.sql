-- The claim takes each application's oldest due deliveries and counts those in flight: partial indexes on pending
-- rows only, so delivered and dead ones are never walked however long the history grows.
CREATE INDEX deliveries_application_due ON kyc.deliveries (application_id, next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_in_flight ON kyc.deliveries (application_id) WHERE status = 'pending' AND lease_until IS NOT NULL;
