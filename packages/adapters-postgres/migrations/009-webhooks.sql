-- Webhooks (issue 18): the admin's endpoints, the transactional outbox the menu writers record events in (in the
-- transaction of the write), and the deliveries a fan-out makes of them, which are also the delivery log. The same
-- schema as the SQLite adapter's 008-webhooks.sql, in PostgreSQL's types. Event ids compare in "C" order, the order the
-- log pages in (and JavaScript's).

CREATE TABLE webhooks (
  webhook_id    text        PRIMARY KEY CHECK (webhook_id ~ '^[A-Za-z0-9_-]{1,64}$'),
  url           text        NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2048),
  events        text[]      NOT NULL CHECK (cardinality(events) >= 1), -- the event types it subscribes to
  secret        text        NOT NULL CHECK (secret LIKE 'whsec\_%'),
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  failing_since timestamptz, -- since when every attempt failed; NULL after a success or a save
  disabled_at   timestamptz  -- NULL while deliveries go out to it
);

-- The outbox: events recorded by menu writes, until a fan-out takes them (in `seq` order, FOR UPDATE SKIP LOCKED, so
-- that two instances never take the same one) and deletes them. `data` is the event's data as the domain stores it
-- (storedEventData: the domain's names, instants as epoch milliseconds), as text: kept exactly as written.
CREATE TABLE webhook_outbox (
  seq         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- the order of recording
  event_id    text        COLLATE "C" NOT NULL UNIQUE,
  event_type  text        NOT NULL CHECK (event_type IN ('menu.published', 'favourites.upcoming', 'meal.withdrawn')),
  occurred_at timestamptz NOT NULL,
  data        text        NOT NULL
);

-- One event on its way to one endpoint, with the event's own copy (an event goes to each endpoint subscribed to it):
-- pending until delivered or given up, then kept as the log. Removing the endpoint removes its deliveries.
CREATE TABLE webhook_deliveries (
  seq             bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- the order fan-outs made them in
  webhook_id      text        NOT NULL REFERENCES webhooks (webhook_id) ON DELETE CASCADE,
  event_id        text        COLLATE "C" NOT NULL,
  event_type      text        NOT NULL CHECK (event_type IN ('menu.published', 'favourites.upcoming', 'meal.withdrawn')),
  occurred_at     timestamptz NOT NULL,
  data            text        NOT NULL,
  -- The user a favourites.upcoming is about: personal data, deleted when the user's data is erased.
  user_id         text,
  state           text        NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts        integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- When a pending delivery is due; a claim moves it to the end of its lease, so a lost attempt is due again then.
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_status     integer, -- NULL when the last attempt got no answer
  last_error      text,
  created_at      timestamptz NOT NULL,
  CONSTRAINT webhook_deliveries_once UNIQUE (webhook_id, event_id),
  CONSTRAINT webhook_deliveries_due_check CHECK ((state = 'pending') = (next_attempt_at IS NOT NULL))
);

-- Claiming: the pending deliveries by due instant, the fan-out's order for ties.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, seq) WHERE state = 'pending';
-- The log of an endpoint, newest first, a page at a time.
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, created_at, event_id);
-- Erasing a user's data.
CREATE INDEX webhook_deliveries_by_user ON webhook_deliveries (user_id) WHERE user_id IS NOT NULL;
