-- Web Push (issue 41): the browsers' subscriptions, each person's notification settings, the outbox of notifications
-- and the keys that make a digest or a sold-out notice happen once. Instants are milliseconds since the epoch, as in
-- every table. Foreign keys stay on: only new tables.

-- A browser's subscription (RFC 8030), one row an endpoint: saving a known endpoint again updates its row (its keys,
-- and its person when another saves it on a shared browser). `seq` orders subscriptions of one instant.
CREATE TABLE push_subscriptions (
  seq             INTEGER PRIMARY KEY,
  subscription_id TEXT    NOT NULL UNIQUE CHECK (length(subscription_id) BETWEEN 1 AND 64),
  user_id         TEXT    NOT NULL,
  endpoint        TEXT    NOT NULL UNIQUE CHECK (length(endpoint) BETWEEN 1 AND 2048),
  p256dh          TEXT    NOT NULL,
  auth            TEXT    NOT NULL,
  expiration_time INTEGER, -- NULL: the browser did not say
  created_at      INTEGER NOT NULL
) STRICT;

-- A person's subscriptions, oldest first (their list, the cap per person, an erasure, a digest's recipients).
CREATE INDEX push_subscriptions_by_user ON push_subscriptions (user_id, created_at, seq);

-- What a person is notified of; no row: the defaults (favourites today on, sold out off, English).
CREATE TABLE notification_settings (
  user_id          TEXT    PRIMARY KEY,
  favourites_today INTEGER NOT NULL CHECK (favourites_today IN (0, 1)),
  sold_out         INTEGER NOT NULL CHECK (sold_out IN (0, 1)),
  language         TEXT    NOT NULL CHECK (language IN ('en', 'de'))
) STRICT, WITHOUT ROWID;

-- A notification to one subscription: pending until an attempt ends it. A delivered one is deleted; a failed or
-- expired one stays, with its last answer. Removing the subscription (gone, removed, erased, past the cap) removes
-- its notifications. AUTOINCREMENT: an id is never used twice, so a late settlement cannot reach another entry.
CREATE TABLE push_outbox (
  entry_id        INTEGER PRIMARY KEY AUTOINCREMENT,
  subscription_id TEXT    NOT NULL REFERENCES push_subscriptions (subscription_id) ON DELETE CASCADE,
  payload         TEXT    NOT NULL, -- the JSON {title, body, url, tag}
  topic           TEXT    NOT NULL,
  due_at          INTEGER NOT NULL,
  expires_at      INTEGER NOT NULL,
  state           TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'failed', 'expired')),
  attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  leased_until    INTEGER, -- a claim's lease: no other claim takes it before then
  settled_at      INTEGER,
  last_status     INTEGER, -- NULL when the last attempt got no answer
  last_error      TEXT
) STRICT;

-- Claiming: the pending entries by due instant, then the order they were written in.
CREATE INDEX push_outbox_due ON push_outbox (due_at, entry_id) WHERE state = 'pending';
-- Removing a subscription's entries (the foreign key's cascade).
CREATE INDEX push_outbox_by_subscription ON push_outbox (subscription_id);

-- The keys of what happens once (`digest:<canteen>:<date>`, `sold-out:<meal>`), written in the transaction of its
-- entries; kept with no entry too.
CREATE TABLE push_once_keys (
  once_key   TEXT    PRIMARY KEY,
  created_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
