-- The outbox of a service (service-support, support/outbox), the same in every service: each event once with the
-- exact bytes every attempt sends; one delivery per event and destination with one status set and one set of
-- counters; one attempt row per send; the recovered windows. Each service defines the view outbox_destinations
-- (its webhook addresses) in its own next migration, which also moves its earlier rows here.
CREATE TABLE ${flyway:defaultSchema}.outbox_events (
    id          text PRIMARY KEY,
    owner_id    text NOT NULL,
    mode        text NOT NULL,
    type        text NOT NULL,
    object_id   text,
    body        bytea NOT NULL,
    created_at  timestamptz NOT NULL
);
CREATE INDEX outbox_events_owner ON ${flyway:defaultSchema}.outbox_events (owner_id, mode, created_at DESC, id DESC);
CREATE INDEX outbox_events_object ON ${flyway:defaultSchema}.outbox_events (object_id, created_at);

-- status: pending (waiting for its next attempt), delivered, dead (out of retries; resend or recover restarts it).
-- attempts counts every attempt made; cycle_failures the failed ones since the last success, resend or recovery,
-- which is what the retry schedule reads.
CREATE TABLE ${flyway:defaultSchema}.outbox_deliveries (
    id               text PRIMARY KEY,
    seq              bigserial NOT NULL UNIQUE,
    event_id         text NOT NULL REFERENCES ${flyway:defaultSchema}.outbox_events (id),
    destination_id   text NOT NULL,
    status           text NOT NULL CHECK (status IN ('pending', 'delivered', 'dead')),
    attempts         integer NOT NULL DEFAULT 0,
    cycle_failures   integer NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz,
    lease_until      timestamptz,
    last_attempt_at  timestamptz,
    last_status_code integer,
    last_error       text,
    delivered_at     timestamptz,
    dead_at          timestamptz,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    UNIQUE (event_id, destination_id)
);
CREATE INDEX outbox_deliveries_lane ON ${flyway:defaultSchema}.outbox_deliveries (destination_id, seq) WHERE status = 'pending';
CREATE INDEX outbox_deliveries_in_flight ON ${flyway:defaultSchema}.outbox_deliveries (destination_id)
    WHERE status = 'pending' AND lease_until IS NOT NULL;
CREATE INDEX outbox_deliveries_due ON ${flyway:defaultSchema}.outbox_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_deliveries_destination ON ${flyway:defaultSchema}.outbox_deliveries (destination_id, seq DESC);
CREATE INDEX outbox_deliveries_window ON ${flyway:defaultSchema}.outbox_deliveries (destination_id, created_at);

CREATE TABLE ${flyway:defaultSchema}.outbox_attempts (
    id                bigserial PRIMARY KEY,
    delivery_id       text NOT NULL REFERENCES ${flyway:defaultSchema}.outbox_deliveries (id) ON DELETE CASCADE,
    attempt_number    integer NOT NULL,
    attempted_at      timestamptz NOT NULL,
    url               text,
    success           boolean NOT NULL,
    status_code       integer,
    latency_ms        bigint NOT NULL,
    error             text,
    response_excerpt  text
);
CREATE INDEX outbox_attempts_delivery ON ${flyway:defaultSchema}.outbox_attempts (delivery_id, attempt_number);

-- Recovered windows: the same window of a destination asked twice resends nothing the second time.
CREATE TABLE ${flyway:defaultSchema}.outbox_recoveries (
    destination_id text NOT NULL,
    since          timestamptz NOT NULL,
    until          timestamptz NOT NULL,
    resent         integer NOT NULL,
    created_at     timestamptz NOT NULL,
    PRIMARY KEY (destination_id, since, until)
);

-- The windows recovered before this migration, kept by a repeatable migration until now: made sure to exist here
-- (empty on a new database) so that each service's next migration moves its rows from one known place.
CREATE TABLE IF NOT EXISTS ${flyway:defaultSchema}.delivery_recoveries (
    address    text NOT NULL,
    since      timestamptz NOT NULL,
    until      timestamptz NOT NULL,
    resent     integer NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (address, since, until)
);
