-- The audit trail (issue 43): who changed what with a staff scope, appended in the same transaction as the change.
-- Instants are milliseconds since the epoch, as in every table. `seq` gives each entry its id in the order of appending;
-- an entry outlives the canteen, meal or webhook it names (no foreign keys): it is a record, not a relation.
CREATE TABLE audit_log (
  seq          INTEGER PRIMARY KEY,
  at           INTEGER NOT NULL,
  actor        TEXT    NOT NULL,
  actor_scopes TEXT    NOT NULL, -- a JSON array of strings
  action       TEXT    NOT NULL,
  canteen_id   TEXT,             -- NULL: a change of no one canteen (a webhook)
  target       TEXT    NOT NULL,
  summary      TEXT    NOT NULL, -- a JSON object
  request_id   TEXT    NOT NULL
) STRICT;

-- The trail newest first, whole or of one canteen; and the retention's delete by age.
CREATE INDEX audit_log_by_time ON audit_log (at, seq);
CREATE INDEX audit_log_by_canteen ON audit_log (canteen_id, at, seq);
