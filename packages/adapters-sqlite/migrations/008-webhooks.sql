-- Webhooks (issue 18): the admin's endpoints, the transactional outbox the menu writers record events in (in the
-- transaction of the write), and the deliveries a fan-out makes of them, which are also the delivery log. Instants are
-- milliseconds since the epoch, as in every table. Foreign keys stay on: only new tables.

-- An endpoint. `events`: the JSON array of the event types it subscribes to (the domain validates them).
CREATE TABLE webhooks (
  webhook_id    TEXT    PRIMARY KEY CHECK (length(webhook_id) BETWEEN 1 AND 64 AND webhook_id NOT GLOB '*[^A-Za-z0-9_-]*'),
  url           TEXT    NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
  events        TEXT    NOT NULL CHECK (json_valid(events) AND json_type(events) = 'array'),
  secret        TEXT    NOT NULL CHECK (secret GLOB 'whsec_*'),
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  failing_since INTEGER, -- since when every attempt failed; NULL after a success or a save
  disabled_at   INTEGER  -- NULL while deliveries go out to it
) STRICT, WITHOUT ROWID;

-- The outbox: events recorded by menu writes, until a fan-out takes them (in `seq` order) and deletes them. `data` is
-- the event's data as the domain stores it (storedEventData: the domain's names, instants as epoch milliseconds).
CREATE TABLE webhook_outbox (
  seq         INTEGER PRIMARY KEY, -- the order of recording
  event_id    TEXT    NOT NULL UNIQUE,
  event_type  TEXT    NOT NULL CHECK (event_type IN ('menu.published', 'favourites.upcoming', 'meal.withdrawn')),
  occurred_at INTEGER NOT NULL,
  data        TEXT    NOT NULL
) STRICT;

-- One event on its way to one endpoint, with the event's own copy (an event goes to each endpoint subscribed to it):
-- pending until delivered or given up, then kept as the log. Removing the endpoint removes its deliveries.
CREATE TABLE webhook_deliveries (
  seq             INTEGER PRIMARY KEY, -- the order fan-outs made them in: ties of the due instant
  webhook_id      TEXT    NOT NULL REFERENCES webhooks (webhook_id) ON DELETE CASCADE,
  event_id        TEXT    NOT NULL,
  event_type      TEXT    NOT NULL CHECK (event_type IN ('menu.published', 'favourites.upcoming', 'meal.withdrawn')),
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

-- Claiming: the pending deliveries by due instant, the fan-out's order for ties.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, seq) WHERE state = 'pending';
-- The log of an endpoint, newest first, a page at a time.
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, created_at, event_id);
-- Erasing a user's data.
CREATE INDEX webhook_deliveries_by_user ON webhook_deliveries (user_id) WHERE user_id IS NOT NULL;
