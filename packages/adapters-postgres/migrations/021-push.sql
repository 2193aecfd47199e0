-- Web Push (issue 41): the browsers' subscriptions, each person's notification settings, the outbox of notifications
-- and the keys that make a digest or a sold-out notice happen once. The same schema as the SQLite adapter's
-- 014-push.sql, in PostgreSQL's types. User ids compare in "C" order: JavaScript's, the order lists are answered in.

-- A browser's subscription (RFC 8030), one row an endpoint: saving a known endpoint again updates its row (its keys,
-- and its person when another saves it on a shared browser). `seq` orders subscriptions of one instant.
CREATE TABLE push_subscriptions (
  subscription_id text        PRIMARY KEY CHECK (char_length(subscription_id) BETWEEN 1 AND 64),
  seq             bigint      GENERATED ALWAYS AS IDENTITY,
  user_id         text        COLLATE "C" NOT NULL,
  endpoint        text        NOT NULL CHECK (char_length(endpoint) BETWEEN 1 AND 2048),
  p256dh          text        NOT NULL,
  auth            text        NOT NULL,
  expiration_time timestamptz, -- NULL: the browser did not say
  created_at      timestamptz NOT NULL,
  CONSTRAINT push_subscriptions_endpoint_key UNIQUE (endpoint)
);

-- A person's subscriptions, oldest first (their list, the cap per person, an erasure, a digest's recipients).
CREATE INDEX push_subscriptions_by_user ON push_subscriptions (user_id, created_at, seq);

-- What a person is notified of; no row: the defaults (favourites today on, sold out off, English).
CREATE TABLE notification_settings (
  user_id          text    PRIMARY KEY,
  favourites_today boolean NOT NULL,
  sold_out         boolean NOT NULL,
  language         text    NOT NULL CHECK (language IN ('en', 'de'))
);

-- A notification to one subscription: pending until an attempt ends it. A delivered one is deleted; a failed or
-- expired one stays, with its last answer. Removing the subscription (gone, removed, erased, past the cap) removes its
-- notifications. A claim locks its rows FOR UPDATE SKIP LOCKED and leases them (leased_until), so no two instances
-- send one entry at once, and a crashed instance's entries are due again when their lease ends.
CREATE TABLE push_outbox (
  entry_id        bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscription_id text        NOT NULL REFERENCES push_subscriptions (subscription_id) ON DELETE CASCADE,
  payload         text        NOT NULL, -- the JSON {title, body, url, tag}, kept exactly as written
  topic           text        NOT NULL,
  due_at          timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  state           text        NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'failed', 'expired')),
  attempts        integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  leased_until    timestamptz,
  settled_at      timestamptz,
  last_status     integer, -- NULL when the last attempt got no answer
  last_error      text
);

-- Claiming: the pending entries by due instant, then the order they were written in.
CREATE INDEX push_outbox_due ON push_outbox (due_at, entry_id) WHERE state = 'pending';
-- Removing a subscription's entries (the foreign key's cascade).
CREATE INDEX push_outbox_by_subscription ON push_outbox (subscription_id);

-- The keys of what happens once (`digest:<canteen>:<date>`, `sold-out:<meal>`), written in the transaction of its
-- entries; kept with no entry too. Two instances writing one key: the second waits for the first and writes nothing.
CREATE TABLE push_once_keys (
  once_key   text        PRIMARY KEY,
  created_at timestamptz NOT NULL
);
