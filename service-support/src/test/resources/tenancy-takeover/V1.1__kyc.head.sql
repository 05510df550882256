-- A client application's columns beyond the shared tenancy tables (service-support db/tenancy V1); until this split
-- they were created with them in V1__kyc.sql, and TenancyUpgrade records this migration as applied where that ran.
ALTER TABLE kyc.applications
    ADD COLUMN return_urls                 text[] NOT NULL,
    ADD COLUMN webhook_url                 text,
    ADD COLUMN webhook_secret_sealed       text NOT NULL,
    ADD COLUMN previous_secret_sealed      text,
    ADD COLUMN previous_secret_expires_at  timestamptz,
    ADD COLUMN revoked_at                  timestamptz;
