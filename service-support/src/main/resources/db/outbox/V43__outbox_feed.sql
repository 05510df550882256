-- The event feed: each event the feed shows gets a position when it is seen committed, assigned by one sequencer at
-- a time (an advisory lock) in batches that commit whole, so a reader that has seen position p never later finds an
-- event below p, however late the transaction that wrote it committed. An event sent to one destination only (a
-- ping) is not on the feed.
-- written: the order events were written in (the order within one transaction, where created_at may tie).
-- committed_at: when the event's transaction committed, kept by the sequencer where the database tracks commit times
-- (track_commit_timestamp; the row's own commit time becomes the sequencer's once it is numbered).
ALTER TABLE ${flyway:defaultSchema}.outbox_events
    ADD COLUMN position bigint,
    ADD COLUMN committed_at timestamptz,
    ADD COLUMN on_feed boolean NOT NULL DEFAULT true,
    ADD COLUMN written bigserial;

UPDATE ${flyway:defaultSchema}.outbox_events SET on_feed = false WHERE type = 'webhook.ping';
UPDATE ${flyway:defaultSchema}.outbox_events e SET position = s.n
FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM ${flyway:defaultSchema}.outbox_events WHERE on_feed) s
WHERE e.id = s.id;

CREATE UNIQUE INDEX outbox_events_position ON ${flyway:defaultSchema}.outbox_events (position);
CREATE INDEX outbox_events_feed ON ${flyway:defaultSchema}.outbox_events (owner_id, mode, position)
    WHERE position IS NOT NULL;
CREATE INDEX outbox_events_unsequenced ON ${flyway:defaultSchema}.outbox_events (written)
    WHERE position IS NULL AND on_feed;

-- How far each destination has read its feed (the cursor it last asked after), for its lag.
CREATE TABLE ${flyway:defaultSchema}.outbox_feed_cursors (
    destination_id text PRIMARY KEY,
    position       bigint NOT NULL,
    read_at        timestamptz NOT NULL
);
