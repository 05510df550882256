-- The W3C traceparent of the request that committed an event (null when nothing traced it): each delivery attempt
-- and each feed read of the event is a span of that request's trace. Nullable, so a release that does not write it
-- keeps working beside one that does.
ALTER TABLE ${flyway:defaultSchema}.outbox_events ADD COLUMN trace_parent text;
