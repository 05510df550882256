-- Test and live are apart: one webhook address and secret per mode, and subject restrictions per mode.
ALTER TABLE kyc.applications
    ADD COLUMN test_webhook_url                 text,
    ADD COLUMN test_webhook_secret_sealed       text,
    ADD COLUMN test_previous_secret_sealed      text,
    ADD COLUMN test_previous_secret_expires_at  timestamptz;

ALTER TABLE kyc.subject_restrictions ADD COLUMN mode text NOT NULL DEFAULT 'live' CHECK (mode IN ('test', 'live'));
ALTER TABLE kyc.subject_restrictions DROP CONSTRAINT subject_restrictions_pkey;
-- a restriction made before modes were apart restricted the subject in both modes: keep it so
INSERT INTO kyc.subject_restrictions (application_id, external_user_id, reason, created_at, mode)
    SELECT application_id, external_user_id, reason, created_at, 'test' FROM kyc.subject_restrictions;
ALTER TABLE kyc.subject_restrictions ADD PRIMARY KEY (application_id, mode, external_user_id);
ALTER TABLE kyc.subject_restrictions ALTER COLUMN mode DROP DEFAULT;
