-- A destination's due deliveries are found through its lane (destination_id, seq) only. An index on seq alone, or on
-- next_attempt_at, lured the planner into walking every delivered row of the table in seq order for each destination
-- (the claim took 80-250 ms under a drained backlog of 15,000 rows); seq stays unique by its sequence.
ALTER TABLE ${flyway:defaultSchema}.outbox_deliveries DROP CONSTRAINT outbox_deliveries_seq_key;
DROP INDEX ${flyway:defaultSchema}.outbox_deliveries_due;
