-- Menu feeds: a canteen lists the feeds the service fetches on their schedules, and feed_states keeps the last outcome
-- of each.
--
-- A canteen's feeds, in their order: a jsonb array of {"name", "url", "schedule"} (the domain validates each feed; the
-- array is read and written whole with the canteen, never queried inside). A constant default: PostgreSQL adds the
-- column without rewriting the table, and every existing canteen gets none.
ALTER TABLE canteens
  ADD COLUMN feeds jsonb NOT NULL DEFAULT '[]'
    CONSTRAINT canteens_feeds_check CHECK (jsonb_typeof(feeds) = 'array');

-- What the service remembers of a feed's fetches, one row per feed of a canteen; saved whole after every attempt.
CREATE TABLE feed_states (
  canteen_id      text        NOT NULL REFERENCES canteens (canteen_id),
  feed_name       text        NOT NULL CHECK (feed_name ~ '^[a-z0-9][a-z0-9-]{0,31}$'),
  last_attempt_at timestamptz,
  last_success_at timestamptz,
  http_status     integer, -- NULL when no answer came
  duration_ms     integer CHECK (duration_ms >= 0),
  outcome         text    CHECK (outcome IN ('imported', 'not_modified', 'failed')),
  -- The counts of the last import: all four NULL (never imported) or all set.
  added           integer CHECK (added >= 0),
  changed         integer CHECK (changed >= 0),
  unchanged       integer CHECK (unchanged >= 0),
  withdrawn       integer CHECK (withdrawn >= 0),
  last_error      text,
  etag            text,    -- the validators of the last successful answer
  last_modified   text,
  PRIMARY KEY (canteen_id, feed_name),
  CONSTRAINT feed_states_counts_check CHECK (num_nulls(added, changed, unchanged, withdrawn) IN (0, 4))
);
