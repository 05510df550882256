-- The webhook addresses of a service, one table the outbox reads and writes directly (in each service's schema, like
-- the outbox tables). A destination belongs to an owner (application or project) and a mode; it is pushed to (kind
-- push, with a url) or read from the event feed (kind pull). Its secret signs what it receives: sealed with SecretBox,
-- bound to secret_bound_to (kyc's test addresses "<application>/test", every other address its own id); the previous
-- secret signs beside it until it expires after a rotation. standby_secret keeps, sealed the same way, the secret of
-- the other kind while this one is in use (kyc: the push secret while an address is pulled, the feed secret while it
-- is pushed). A deleted destination stays (its deliveries keep their URL) and receives nothing.
-- receives, open and delivery are what the engine asks: it takes new deliveries; its deliveries may be sent (not
-- deleted, not paused); push, pull, or null when it has neither a URL nor a feed secret or is deleted.
-- Each service fills it from its earlier tables in its next migration and keeps both in step while the release
-- before this one still runs (docs/addresses.md).
CREATE TABLE ${flyway:defaultSchema}.destinations (
    id                          text PRIMARY KEY,
    owner_id                    text NOT NULL,
    mode                        text NOT NULL CHECK (mode IN ('test', 'live')),
    kind                        text NOT NULL CHECK (kind IN ('push', 'pull')),
    url                         text,
    events                      text[],
    secret                      text,
    secret_bound_to             text NOT NULL,
    previous_secret             text,
    previous_secret_expires_at  timestamptz,
    standby_secret              text,
    state                       text NOT NULL DEFAULT 'enabled' CHECK (state IN ('enabled', 'deleted')),
    consecutive_failures        integer NOT NULL DEFAULT 0,
    paused_at                   timestamptz,
    created_at                  timestamptz NOT NULL,
    receives                    boolean GENERATED ALWAYS AS (state = 'enabled' AND kind = 'push') STORED,
    open                        boolean GENERATED ALWAYS AS (state = 'enabled' AND paused_at IS NULL) STORED,
    delivery                    text GENERATED ALWAYS AS
        (CASE WHEN state = 'enabled' AND (kind = 'push' OR secret IS NOT NULL) THEN kind END) STORED,
    CONSTRAINT destinations_url_when_pushed CHECK ((kind = 'push') = (url IS NOT NULL))
);
CREATE INDEX destinations_owner ON ${flyway:defaultSchema}.destinations (owner_id, mode, created_at, id);
