-- Availability of a serving (issue 29): what the kitchen says is left. Every serving starts available and never
-- changed; ADD COLUMN rewrites no row. The instant of the last change goes with the status, so that a repeated status
-- keeps it (idempotent) and the ratings report can tell when a meal sold out.
ALTER TABLE meals ADD COLUMN availability TEXT NOT NULL DEFAULT 'available'
  CHECK (availability IN ('available', 'few_left', 'sold_out'));
ALTER TABLE meals ADD COLUMN availability_changed_at INTEGER; -- milliseconds since the epoch, UTC; NULL: never changed

-- The outbox and the deliveries take the new event type `meal.availability_changed`: SQLite cannot change a CHECK in
-- place, so both tables are rebuilt with their rows, seq values and indexes (nothing references either table).
CREATE TABLE webhook_outbox_rebuilt (
  seq         INTEGER PRIMARY KEY, -- the order of recording
  event_id    TEXT    NOT NULL UNIQUE,
  event_type  TEXT    NOT NULL CHECK (event_type IN ('menu.published', 'favourites.upcoming', 'meal.withdrawn', 'meal.availability_changed')),
  occurred_at INTEGER NOT NULL,
  data        TEXT    NOT NULL
) STRICT;
INSERT INTO webhook_outbox_rebuilt (seq, event_id, event_type, occurred_at, data)
  SELECT seq, event_id, event_type, occurred_at, data FROM webhook_outbox;
DROP TABLE webhook_outbox;
ALTER TABLE webhook_outbox_rebuilt RENAME TO webhook_outbox;

CREATE TABLE webhook_deliveries_rebuilt (
  seq             INTEGER PRIMARY KEY, -- the order fan-outs made them in: ties of the due instant
  webhook_id      TEXT    NOT NULL REFERENCES webhooks (webhook_id) ON DELETE CASCADE,
  event_id        TEXT    NOT NULL,
  event_type      TEXT    NOT NULL CHECK (event_type IN ('menu.published', 'favourites.upcoming', 'meal.withdrawn', 'meal.availability_changed')),
  occurred_at     INTEGER NOT NULL,
  data            TEXT    NOT NULL,
  -- The user a favourites.upcoming is about: personal data, deleted when the user's data is erased.
  user_id         TEXT,
  state           TEXT    NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- When a pending delivery is due; a claim moves it to the end of its lease, so a lost attempt is due again then.
  next_attempt_at INTEGER,
  last_attempt_at INTEGER,
  last_status     INTEGER, -- NULL when the last attempt got no answer
  last_error      TEXT,
  created_at      INTEGER NOT NULL,
  UNIQUE (webhook_id, event_id),
  CHECK ((state = 'pending') = (next_attempt_at IS NOT NULL))
) STRICT;
INSERT INTO webhook_deliveries_rebuilt (seq, webhook_id, event_id, event_type, occurred_at, data, user_id, state, attempts,
    next_attempt_at, last_attempt_at, last_status, last_error, created_at)
  SELECT seq, webhook_id, event_id, event_type, occurred_at, data, user_id, state, attempts,
    next_attempt_at, last_attempt_at, last_status, last_error, created_at
  FROM webhook_deliveries;
DROP TABLE webhook_deliveries;
ALTER TABLE webhook_deliveries_rebuilt RENAME TO webhook_deliveries;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, seq) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, created_at, event_id);
CREATE INDEX webhook_deliveries_by_user ON webhook_deliveries (user_id) WHERE user_id IS NOT NULL;
