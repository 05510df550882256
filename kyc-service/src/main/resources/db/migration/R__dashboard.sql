-- The merchant dashboard (issue 15), this service's part (the shared tables: service-support db/dashboard).
CREATE INDEX IF NOT EXISTS deliveries_application_created ON kyc.deliveries (application_id, created_at);
