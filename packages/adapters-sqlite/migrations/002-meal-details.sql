-- migrate: foreign keys off
-- Meals gain what a menu says about them (category, notes, prices per role) and take names of up to 250
-- characters, as OpenMensa feeds do. SQLite cannot widen a CHECK in place, so the table is rebuilt the documented
-- way: with foreign keys off (the first line tells the runner), checked by foreign_key_check before the commit.
CREATE TABLE meals_rebuilt (
  meal_id        INTEGER PRIMARY KEY CHECK (meal_id > 0),
  name           TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 250),
  served_at      INTEGER NOT NULL, -- milliseconds since the epoch, UTC
  rateable       INTEGER NOT NULL CHECK (rateable IN (0, 1)),
  category       TEXT             CHECK (category IS NULL OR length(category) BETWEEN 1 AND 250),
  notes          TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(notes) AND json_type(notes) = 'array'),
  -- Euro amounts as canonical decimal strings ("2.60"), so that no digit is rounded away.
  price_student  TEXT CHECK (price_student  IS NULL OR price_student  GLOB '[0-9]*.[0-9][0-9]*' AND price_student  NOT GLOB '*[^0-9.]*'),
  price_employee TEXT CHECK (price_employee IS NULL OR price_employee GLOB '[0-9]*.[0-9][0-9]*' AND price_employee NOT GLOB '*[^0-9.]*'),
  price_pupil    TEXT CHECK (price_pupil    IS NULL OR price_pupil    GLOB '[0-9]*.[0-9][0-9]*' AND price_pupil    NOT GLOB '*[^0-9.]*'),
  price_other    TEXT CHECK (price_other    IS NULL OR price_other    GLOB '[0-9]*.[0-9][0-9]*' AND price_other    NOT GLOB '*[^0-9.]*'),
  rated_1        INTEGER NOT NULL DEFAULT 0 CHECK (rated_1 >= 0),
  rated_2        INTEGER NOT NULL DEFAULT 0 CHECK (rated_2 >= 0),
  rated_3        INTEGER NOT NULL DEFAULT 0 CHECK (rated_3 >= 0),
  rated_4        INTEGER NOT NULL DEFAULT 0 CHECK (rated_4 >= 0),
  rated_5        INTEGER NOT NULL DEFAULT 0 CHECK (rated_5 >= 0)
) STRICT;

INSERT INTO meals_rebuilt (meal_id, name, served_at, rateable, rated_1, rated_2, rated_3, rated_4, rated_5)
  SELECT meal_id, name, served_at, rateable, rated_1, rated_2, rated_3, rated_4, rated_5 FROM meals;
DROP TABLE meals;
ALTER TABLE meals_rebuilt RENAME TO meals;
CREATE INDEX meals_served_at ON meals (served_at);

-- Where imported meals came from. The key (source, day, category, name) names one meal for good: a re-import finds
-- the meal again by it, and no import ever points a key at another meal (meal_id is UNIQUE, rows are never updated).
CREATE TABLE meal_sources (
  source_key TEXT    PRIMARY KEY,
  meal_id    INTEGER NOT NULL UNIQUE REFERENCES meals (meal_id),
  source     TEXT    NOT NULL,
  served_on  TEXT    NOT NULL CHECK (served_on GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]')
) STRICT, WITHOUT ROWID;

CREATE INDEX meal_sources_by_day ON meal_sources (source, served_on);
