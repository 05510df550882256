-- Checkout's webhook endpoints move into the outbox's table of destinations (service-support V57), ids, secrets
-- (sealed bound to the id) and deleted endpoints kept. The release before this one still reads and writes
-- webhook_endpoints while both run: until the release that drops them, a write to either table is copied to the other
-- by the triggers below. A copy made by a trigger is not copied back (pg_trigger_depth). The table is locked first so
-- that no write of the running release falls between the copy and the triggers.
LOCK TABLE checkout.webhook_endpoints IN SHARE ROW EXCLUSIVE MODE;

INSERT INTO checkout.destinations (id, owner_id, mode, kind, url, events, secret, secret_bound_to, previous_secret,
    previous_secret_expires_at, state, created_at)
SELECT id, application_id, mode, delivery, url, events, secret_sealed, id, previous_secret_sealed,
       previous_secret_expires_at, status, created_at
FROM checkout.webhook_endpoints;

CREATE FUNCTION checkout.webhook_endpoints_to_destinations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF pg_trigger_depth() > 1 THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        UPDATE checkout.destinations SET state = 'deleted' WHERE id = OLD.id;
        RETURN NULL;
    END IF;
    INSERT INTO checkout.destinations (id, owner_id, mode, kind, url, events, secret, secret_bound_to, previous_secret,
        previous_secret_expires_at, state, created_at)
    VALUES (NEW.id, NEW.application_id, NEW.mode, NEW.delivery, NEW.url, NEW.events, NEW.secret_sealed, NEW.id,
        NEW.previous_secret_sealed, NEW.previous_secret_expires_at, NEW.status, NEW.created_at)
    ON CONFLICT (id) DO UPDATE SET kind = EXCLUDED.kind, url = EXCLUDED.url, events = EXCLUDED.events,
        secret = EXCLUDED.secret, previous_secret = EXCLUDED.previous_secret,
        previous_secret_expires_at = EXCLUDED.previous_secret_expires_at, state = EXCLUDED.state;
    RETURN NULL;
END
$$;

CREATE TRIGGER webhook_endpoints_to_destinations AFTER INSERT OR UPDATE OR DELETE ON checkout.webhook_endpoints
    FOR EACH ROW EXECUTE FUNCTION checkout.webhook_endpoints_to_destinations();

CREATE FUNCTION checkout.destinations_to_webhook_endpoints() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF pg_trigger_depth() > 1 THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        UPDATE checkout.webhook_endpoints SET status = 'deleted' WHERE id = OLD.id;
        RETURN NULL;
    END IF;
    INSERT INTO checkout.webhook_endpoints (id, application_id, mode, url, events, secret_sealed, status, created_at,
        previous_secret_sealed, previous_secret_expires_at, delivery)
    VALUES (NEW.id, NEW.owner_id, NEW.mode, NEW.url, COALESCE(NEW.events, '{}'), NEW.secret, NEW.state, NEW.created_at,
        NEW.previous_secret, NEW.previous_secret_expires_at, NEW.kind)
    ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, events = EXCLUDED.events, secret_sealed = EXCLUDED.secret_sealed,
        status = EXCLUDED.status, previous_secret_sealed = EXCLUDED.previous_secret_sealed,
        previous_secret_expires_at = EXCLUDED.previous_secret_expires_at, delivery = EXCLUDED.delivery;
    RETURN NULL;
END
$$;

CREATE TRIGGER destinations_to_webhook_endpoints AFTER INSERT OR UPDATE OR DELETE ON checkout.destinations
    FOR EACH ROW EXECUTE FUNCTION checkout.destinations_to_webhook_endpoints();
