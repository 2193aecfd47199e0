-- The audit trail (issue 43): who changed what with a staff scope, appended in the same transaction as the change, so
-- a change and its entry commit together. The same table as the SQLite adapter's 015-audit.sql, in PostgreSQL's types;
-- an entry outlives the canteen, meal or webhook it names (no foreign keys): it is a record, not a relation.
CREATE TABLE audit_log (
  seq          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at           timestamptz NOT NULL,
  actor        text        COLLATE "C" NOT NULL,
  actor_scopes jsonb       NOT NULL, -- a JSON array of strings
  action       text        NOT NULL,
  canteen_id   text        COLLATE "C", -- NULL: a change of no one canteen (a webhook)
  target       text        NOT NULL,
  summary      jsonb       NOT NULL,
  request_id   text        NOT NULL
);

-- The trail newest first, whole or of one canteen; and the retention's delete by age.
CREATE INDEX audit_log_by_time ON audit_log (at, seq);
CREATE INDEX audit_log_by_canteen ON audit_log (canteen_id, at, seq);
