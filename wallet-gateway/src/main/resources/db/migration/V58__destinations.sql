-- The gateway's webhook addresses move into the outbox's table of destinations (service-support V57), ids, secrets
-- (sealed bound to the id), counters and pauses kept. The release before this one still reads and writes
-- webhook_endpoints (and pauses through the view outbox_destinations over it) while both run: until the release that
-- drops them, a write to either table is copied to the other by the triggers below. A copy made by a trigger is not
-- copied back (pg_trigger_depth). The table is locked first so that no write of the running release falls between the
-- copy and the triggers.
LOCK TABLE wallet.webhook_endpoints IN SHARE ROW EXCLUSIVE MODE;

INSERT INTO wallet.destinations (id, owner_id, mode, kind, url, events, secret, secret_bound_to, previous_secret,
    previous_secret_expires_at, consecutive_failures, paused_at, created_at)
SELECT id, project_id, mode, delivery, url, events, secret_sealed, id, previous_secret_sealed, previous_secret_expires_at,
       consecutive_failures, paused_at, created_at
FROM wallet.webhook_endpoints;

CREATE FUNCTION wallet.webhook_endpoints_to_destinations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF pg_trigger_depth() > 1 THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        UPDATE wallet.destinations SET state = 'deleted' WHERE id = OLD.id;
        RETURN NULL;
    END IF;
    INSERT INTO wallet.destinations (id, owner_id, mode, kind, url, events, secret, secret_bound_to, previous_secret,
        previous_secret_expires_at, consecutive_failures, paused_at, created_at)
    VALUES (NEW.id, NEW.project_id, NEW.mode, NEW.delivery, NEW.url, NEW.events, NEW.secret_sealed, NEW.id,
        NEW.previous_secret_sealed, NEW.previous_secret_expires_at, NEW.consecutive_failures, NEW.paused_at, NEW.created_at)
    ON CONFLICT (id) DO UPDATE SET kind = EXCLUDED.kind, url = EXCLUDED.url, events = EXCLUDED.events,
        secret = EXCLUDED.secret, previous_secret = EXCLUDED.previous_secret,
        previous_secret_expires_at = EXCLUDED.previous_secret_expires_at,
        consecutive_failures = EXCLUDED.consecutive_failures, paused_at = EXCLUDED.paused_at;
    RETURN NULL;
END
$$;

CREATE TRIGGER webhook_endpoints_to_destinations AFTER INSERT OR UPDATE OR DELETE ON wallet.webhook_endpoints
    FOR EACH ROW EXECUTE FUNCTION wallet.webhook_endpoints_to_destinations();

CREATE FUNCTION wallet.destinations_to_webhook_endpoints() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF pg_trigger_depth() > 1 THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' OR NEW.state = 'deleted' THEN
        DELETE FROM wallet.webhook_endpoints WHERE id = OLD.id;
        RETURN NULL;
    END IF;
    INSERT INTO wallet.webhook_endpoints (id, project_id, mode, url, events, secret_sealed, previous_secret_sealed,
        previous_secret_expires_at, consecutive_failures, created_at, paused_at, delivery)
    VALUES (NEW.id, NEW.owner_id, NEW.mode, NEW.url, COALESCE(NEW.events, '{}'), NEW.secret, NEW.previous_secret,
        NEW.previous_secret_expires_at, NEW.consecutive_failures, NEW.created_at, NEW.paused_at, NEW.kind)
    ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, events = EXCLUDED.events, secret_sealed = EXCLUDED.secret_sealed,
        previous_secret_sealed = EXCLUDED.previous_secret_sealed,
        previous_secret_expires_at = EXCLUDED.previous_secret_expires_at,
        consecutive_failures = EXCLUDED.consecutive_failures, paused_at = EXCLUDED.paused_at,
        delivery = EXCLUDED.delivery;
    RETURN NULL;
END
$$;

CREATE TRIGGER destinations_to_webhook_endpoints AFTER INSERT OR UPDATE OR DELETE ON wallet.destinations
    FOR EACH ROW EXECUTE FUNCTION wallet.destinations_to_webhook_endpoints();
