-- The rate limits every instance shares: one row per key (`user:<sub>`, `ip:<address>`) and fixed window, whose start
-- and end are epoch milliseconds on the instances' clocks. UNLOGGED: no WAL is written for it, so an increment costs
-- no log flush; after a crash PostgreSQL empties it (and a standby never has it), which only forgets the current
-- minute's counts: rate counters need no durability. Rows of ended windows are deleted by the instances now and then.
CREATE UNLOGGED TABLE rate_limit_hits (
  key          text    NOT NULL CHECK (char_length(key) BETWEEN 1 AND 300),
  window_start bigint  NOT NULL,
  window_end   bigint  NOT NULL CHECK (window_end > window_start),
  hits         integer NOT NULL CHECK (hits > 0),
  PRIMARY KEY (key, window_start)
);

-- One row that readiness writes while a write has failed for want of storage: only a write that succeeds says the
-- database keeps writes again (SELECT 1 answers on a full disk and on a standby too). Logged, unlike the counters.
CREATE TABLE storage_probe (
  id         boolean PRIMARY KEY DEFAULT true CHECK (id),
  checked_at timestamptz NOT NULL
);
INSERT INTO storage_probe (checked_at) VALUES (now());
