-- migrate: foreign keys off
-- Canteens: every meal is served by one. The meals of the time before canteens go to the `default` canteen, whose
-- time zone the opener chooses (openSqliteDatabase's `defaultTimeZone`, handed to the migration runner in
-- temp.migration_settings); an existing `default` canteen is never changed by an open.
--
-- SQLite adds a column with a REFERENCES clause and a non-NULL default only while foreign keys are off (the first
-- line tells the runner); ADD COLUMN rewrites no row, and foreign_key_check runs before the commit.
CREATE TABLE canteens (
  -- The slug ^[a-z0-9][a-z0-9-]{0,63}$: a lowercase letter or digit, then letters, digits and hyphens, 64 at most.
  canteen_id TEXT PRIMARY KEY CHECK (
    length(canteen_id) BETWEEN 1 AND 64 AND canteen_id GLOB '[a-z0-9]*' AND canteen_id NOT GLOB '*[^a-z0-9-]*'),
  name       TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 250),
  time_zone  TEXT NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 100), -- IANA, e.g. Europe/Berlin
  city       TEXT          CHECK (city IS NULL OR length(city) BETWEEN 1 AND 250),
  address    TEXT          CHECK (address IS NULL OR length(address) BETWEEN 1 AND 250),
  lat        REAL          CHECK (lat IS NULL OR lat BETWEEN -90 AND 90),
  lng        REAL          CHECK (lng IS NULL OR lng BETWEEN -180 AND 180),
  CHECK ((lat IS NULL) = (lng IS NULL))
) STRICT, WITHOUT ROWID;

INSERT INTO canteens (canteen_id, name, time_zone)
  SELECT 'default', 'Default canteen', value FROM temp.migration_settings WHERE name = 'default_time_zone';

ALTER TABLE meals ADD COLUMN canteen_id TEXT NOT NULL DEFAULT 'default' REFERENCES canteens (canteen_id);
-- Where the meal stands in its day's menu (0 first).
ALTER TABLE meals ADD COLUMN position INTEGER NOT NULL DEFAULT 0 CHECK (position BETWEEN 0 AND 9999);

-- A menu is the meals of one canteen in a span of time, by serving time, then position, then id: one range scan.
DROP INDEX meals_served_at;
CREATE INDEX meals_by_canteen_served ON meals (canteen_id, served_at, position, meal_id);
