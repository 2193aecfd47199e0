-- OpenMensa (issue 25): each canteen's number in the OpenMensa API v2, and the days a canteen is closed.
--
-- The number: a positive int32, unique. Existing canteens are numbered 1, 2, ... in the order of their ids. SQLite
-- adds a column NOT NULL only with a constant default, so it stays nullable; the trigger numbers every row inserted
-- without one (the `default` canteen an open creates, any new canteen), one above the highest in use, or at the top
-- of the range the lowest free number. Writes are serialized, so two inserts never take the same number.
ALTER TABLE canteens ADD COLUMN openmensa_id INTEGER CHECK (openmensa_id BETWEEN 1 AND 2147483647);

UPDATE canteens SET openmensa_id = (SELECT count(*) FROM canteens AS earlier WHERE earlier.canteen_id <= canteens.canteen_id);

CREATE UNIQUE INDEX canteens_by_openmensa_id ON canteens (openmensa_id);

CREATE TRIGGER canteens_number_new AFTER INSERT ON canteens WHEN NEW.openmensa_id IS NULL
BEGIN
  UPDATE canteens SET openmensa_id = (
    SELECT CASE
      WHEN coalesce(max(openmensa_id), 0) < 2147483647 THEN coalesce(max(openmensa_id), 0) + 1
      WHEN NOT EXISTS (SELECT 1 FROM canteens WHERE openmensa_id = 1) THEN 1
      ELSE (SELECT min(taken.openmensa_id) + 1 FROM canteens AS taken
            WHERE NOT EXISTS (SELECT 1 FROM canteens AS next WHERE next.openmensa_id = taken.openmensa_id + 1))
    END FROM canteens)
  WHERE canteen_id = NEW.canteen_id;
END;

-- A day on a canteen's calendar that its menu says is closed (a feed's <closed/>, or an admin's PUT). A day that is
-- not listed is open, or unknown when it has no meals.
CREATE TABLE closed_days (
  canteen_id TEXT NOT NULL REFERENCES canteens (canteen_id),
  day        TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  PRIMARY KEY (canteen_id, day)
) STRICT, WITHOUT ROWID;
