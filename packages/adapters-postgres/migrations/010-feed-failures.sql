-- Feeds that recover (issue 26): a failed feed is retried at the next checks, 30 s after the first failure and twice
-- as long after each further one. `failures` counts the failed attempts since the last success. A feed whose last
-- attempt failed counts one, so it is retried soon instead of at its next scheduled run. A constant default:
-- PostgreSQL adds the column without rewriting the table.
ALTER TABLE feed_states ADD COLUMN failures integer NOT NULL DEFAULT 0 CONSTRAINT feed_states_failures_check CHECK (failures >= 0);
UPDATE feed_states SET failures = 1 WHERE outcome = 'failed';
