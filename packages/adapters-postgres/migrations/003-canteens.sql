-- Canteens: every meal is served by one. The meals of the time before canteens go to the canteen `default`, which
-- this migration creates before meals reference it. Its time zone is the one `migrate` was given (the option
-- `defaultTimeZone` of `openPostgres`, passed as the session setting `meals.default_time_zone`), else UTC; a
-- `default` canteen that exists already keeps its own.
CREATE TABLE canteens (
  canteen_id text PRIMARY KEY CHECK (canteen_id ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
  name       text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 250),
  -- An IANA zone name, checked by the domain (PostgreSQL's and the runtime's zone databases need not agree).
  time_zone  text NOT NULL CHECK (char_length(time_zone) BETWEEN 1 AND 100),
  city       text CHECK (char_length(city) BETWEEN 1 AND 250),
  address    text CHECK (char_length(address) BETWEEN 1 AND 250),
  -- Degrees; NaN and the infinities are out of range (PostgreSQL orders NaN above every number).
  lat        double precision CHECK (lat BETWEEN -90 AND 90),
  lng        double precision CHECK (lng BETWEEN -180 AND 180),
  CONSTRAINT canteens_coordinates_check CHECK ((lat IS NULL) = (lng IS NULL))
);

INSERT INTO canteens (canteen_id, name, time_zone)
VALUES ('default', 'Default canteen', coalesce(nullif(current_setting('meals.default_time_zone', true), ''), 'UTC'))
ON CONFLICT (canteen_id) DO NOTHING;

-- Both defaults are constants, so PostgreSQL adds the columns without rewriting the table; the foreign key then
-- checks every existing meal, all of which name `default`.
ALTER TABLE meals
  ADD COLUMN canteen_id text NOT NULL DEFAULT 'default'
    CONSTRAINT meals_canteen_id_fkey REFERENCES canteens (canteen_id),
  ADD COLUMN position integer NOT NULL DEFAULT 0
    CONSTRAINT meals_position_check CHECK (position BETWEEN 0 AND 9999);

-- A day's menu of one canteen (`viewsServedIn`): a range of served_at within one canteen, already in menu order.
CREATE INDEX meals_menu_order ON meals (canteen_id, served_at, position, meal_id);
