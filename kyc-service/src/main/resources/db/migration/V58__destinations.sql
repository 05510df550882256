-- An application's two webhook addresses (live: the application id; test: "<application>/test", what its secrets are
-- sealed to) move into the outbox's table of destinations (service-support V57). An address with a URL is pushed to
-- and signs with its push secret (its feed secret on standby); one without is pulled and signs its feed with its feed
-- secret (its push secret on standby); with neither URL nor feed secret it has no feed (delivery null), as the view
-- outbox_destinations said. The release before this one still reads and writes the applications' columns while both
-- run: until the release that drops them, a write to either side is copied to the other by the triggers below. A copy
-- made by a trigger is not copied back (pg_trigger_depth). The table is locked first so that no write of the running
-- release falls between the copy and the triggers.
LOCK TABLE kyc.applications IN SHARE ROW EXCLUSIVE MODE;

-- This release inserts an application without its address columns and registers its two destinations, which the
-- trigger below copies back into them in the same transaction.
ALTER TABLE kyc.applications ALTER COLUMN webhook_secret_sealed DROP NOT NULL;

CREATE FUNCTION kyc.application_to_destinations(a kyc.applications) RETURNS void LANGUAGE sql AS $$
    INSERT INTO kyc.destinations AS d (id, owner_id, mode, kind, url, secret, secret_bound_to, previous_secret,
        previous_secret_expires_at, standby_secret, created_at)
    VALUES (a.id, a.id, 'live', CASE WHEN a.webhook_url IS NULL THEN 'pull' ELSE 'push' END, a.webhook_url,
            CASE WHEN a.webhook_url IS NULL THEN a.feed_secret_sealed ELSE a.webhook_secret_sealed END, a.id,
            CASE WHEN a.webhook_url IS NULL THEN NULL ELSE a.previous_secret_sealed END,
            CASE WHEN a.webhook_url IS NULL THEN NULL ELSE a.previous_secret_expires_at END,
            CASE WHEN a.webhook_url IS NULL THEN a.webhook_secret_sealed ELSE a.feed_secret_sealed END, a.created_at),
           (a.id || '/test', a.id, 'test', CASE WHEN a.test_webhook_url IS NULL THEN 'pull' ELSE 'push' END,
            a.test_webhook_url,
            CASE WHEN a.test_webhook_url IS NULL THEN a.test_feed_secret_sealed ELSE a.test_webhook_secret_sealed END,
            a.id || '/test',
            CASE WHEN a.test_webhook_url IS NULL THEN NULL ELSE a.test_previous_secret_sealed END,
            CASE WHEN a.test_webhook_url IS NULL THEN NULL ELSE a.test_previous_secret_expires_at END,
            CASE WHEN a.test_webhook_url IS NULL THEN a.test_webhook_secret_sealed ELSE a.test_feed_secret_sealed END,
            a.created_at)
    ON CONFLICT (id) DO UPDATE SET kind = EXCLUDED.kind, url = EXCLUDED.url, secret = EXCLUDED.secret,
        previous_secret = EXCLUDED.previous_secret, previous_secret_expires_at = EXCLUDED.previous_secret_expires_at,
        standby_secret = EXCLUDED.standby_secret
$$;

SELECT kyc.application_to_destinations(a) FROM kyc.applications a;

CREATE FUNCTION kyc.applications_to_destinations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF pg_trigger_depth() > 1 THEN
        RETURN NULL;
    END IF;
    PERFORM kyc.application_to_destinations(NEW);
    RETURN NULL;
END
$$;

CREATE TRIGGER applications_to_destinations
    AFTER INSERT OR UPDATE OF webhook_url, webhook_secret_sealed, previous_secret_sealed, previous_secret_expires_at,
        test_webhook_url, test_webhook_secret_sealed, test_previous_secret_sealed, test_previous_secret_expires_at,
        feed_secret_sealed, test_feed_secret_sealed
    ON kyc.applications FOR EACH ROW WHEN (NEW.webhook_secret_sealed IS NOT NULL)
    EXECUTE FUNCTION kyc.applications_to_destinations();

-- A pushed address keeps its previous push secret here; a pulled one leaves the application's as it was.
CREATE FUNCTION kyc.destinations_to_applications() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    pushed boolean := NEW.kind = 'push';
BEGIN
    IF pg_trigger_depth() > 1 THEN
        RETURN NULL;
    END IF;
    IF NEW.mode = 'live' THEN
        UPDATE kyc.applications SET webhook_url = NEW.url,
            webhook_secret_sealed = COALESCE(CASE WHEN pushed THEN NEW.secret ELSE NEW.standby_secret END, webhook_secret_sealed),
            feed_secret_sealed = CASE WHEN pushed THEN NEW.standby_secret ELSE NEW.secret END,
            previous_secret_sealed = CASE WHEN pushed THEN NEW.previous_secret ELSE previous_secret_sealed END,
            previous_secret_expires_at = CASE WHEN pushed THEN NEW.previous_secret_expires_at ELSE previous_secret_expires_at END
        WHERE id = NEW.owner_id;
    ELSE
        UPDATE kyc.applications SET test_webhook_url = NEW.url,
            test_webhook_secret_sealed = CASE WHEN pushed THEN NEW.secret ELSE NEW.standby_secret END,
            test_feed_secret_sealed = CASE WHEN pushed THEN NEW.standby_secret ELSE NEW.secret END,
            test_previous_secret_sealed = CASE WHEN pushed THEN NEW.previous_secret ELSE test_previous_secret_sealed END,
            test_previous_secret_expires_at = CASE WHEN pushed THEN NEW.previous_secret_expires_at ELSE test_previous_secret_expires_at END
        WHERE id = NEW.owner_id;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER destinations_to_applications AFTER INSERT OR UPDATE ON kyc.destinations
    FOR EACH ROW EXECUTE FUNCTION kyc.destinations_to_applications();
