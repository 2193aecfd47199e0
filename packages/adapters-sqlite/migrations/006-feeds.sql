-- Menu feeds: a canteen lists the feeds the service fetches on their schedules, and feed_states keeps the last outcome
-- of each. Foreign keys stay on: the new column has a constant default and references nothing.
--
-- A canteen's feeds, in their order: a JSON array of {"name", "url", "schedule"} (the domain validates each feed; the
-- array is read and written whole with the canteen, never queried inside). Every existing canteen gets none.
ALTER TABLE canteens ADD COLUMN feeds TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(feeds) AND json_type(feeds) = 'array');

-- What the service remembers of a feed's fetches, one row per feed of a canteen; saved whole after every attempt.
CREATE TABLE feed_states (
  canteen_id      TEXT    NOT NULL REFERENCES canteens (canteen_id),
  -- The feed's name within its canteen, ^[a-z0-9][a-z0-9-]{0,31}$ in GLOBs.
  feed_name       TEXT    NOT NULL CHECK (
    length(feed_name) BETWEEN 1 AND 32 AND feed_name GLOB '[a-z0-9]*' AND feed_name NOT GLOB '*[^a-z0-9-]*'),
  last_attempt_at INTEGER, -- milliseconds since the epoch
  last_success_at INTEGER, -- milliseconds since the epoch
  http_status     INTEGER, -- NULL when no answer came
  duration_ms     INTEGER CHECK (duration_ms >= 0),
  outcome         TEXT    CHECK (outcome IN ('imported', 'not_modified', 'failed')),
  -- The counts of the last import: all four NULL (never imported) or all set.
  added           INTEGER CHECK (added >= 0),
  changed         INTEGER CHECK (changed >= 0),
  unchanged       INTEGER CHECK (unchanged >= 0),
  withdrawn       INTEGER CHECK (withdrawn >= 0),
  last_error      TEXT,
  etag            TEXT,    -- the validators of the last successful answer
  last_modified   TEXT,
  PRIMARY KEY (canteen_id, feed_name),
  CHECK ((added IS NULL) = (changed IS NULL) AND (added IS NULL) = (unchanged IS NULL) AND (added IS NULL) = (withdrawn IS NULL))
) STRICT, WITHOUT ROWID;
