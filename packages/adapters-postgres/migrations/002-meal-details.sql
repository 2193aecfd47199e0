-- The same change as the SQLite adapter's 002-meal-details.sql: meals gain what a menu says about them (category,
-- notes, prices per role) and take names of up to 250 characters, as OpenMensa feeds do. PostgreSQL alters the
-- table in place; the existing rows keep their ratings and get the default details.
ALTER TABLE meals DROP CONSTRAINT meals_name_check;
ALTER TABLE meals ADD CONSTRAINT meals_name_check CHECK (char_length(name) BETWEEN 1 AND 250);

ALTER TABLE meals
  ADD COLUMN category       text  CHECK (category IS NULL OR char_length(category) BETWEEN 1 AND 250),
  ADD COLUMN notes          jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(notes) = 'array'),
  -- Euro amounts as canonical decimal strings ("2.60"), so that no digit is rounded away.
  ADD COLUMN price_student  text  CHECK (price_student  ~ '^[0-9]+\.[0-9]{2,}$'),
  ADD COLUMN price_employee text  CHECK (price_employee ~ '^[0-9]+\.[0-9]{2,}$'),
  ADD COLUMN price_pupil    text  CHECK (price_pupil    ~ '^[0-9]+\.[0-9]{2,}$'),
  ADD COLUMN price_other    text  CHECK (price_other    ~ '^[0-9]+\.[0-9]{2,}$');

-- Where imported meals came from. The key (source, day, category, name) names one meal for good: a re-import finds
-- the meal again by it, and no import ever points a key at another meal (meal_id is UNIQUE, rows are never updated).
CREATE TABLE meal_sources (
  source_key text   PRIMARY KEY,
  meal_id    bigint NOT NULL UNIQUE REFERENCES meals (meal_id),
  source     text   NOT NULL,
  served_on  text   NOT NULL CHECK (served_on ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$')
);

CREATE INDEX meal_sources_by_day ON meal_sources (source, served_on);
