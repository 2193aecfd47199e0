-- The same change as the SQLite adapter's 012-labels.sql (issue 27): meals carry label codes (with their parents,
-- sorted), canteens their own note spellings and placeholder names, users their label preferences and the dishes
-- they avoid. Existing meals carry no label until they are written again.
ALTER TABLE meals ADD COLUMN labels jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(labels) = 'array');

ALTER TABLE canteens
  ADD COLUMN note_labels       jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(note_labels) = 'object'),
  ADD COLUMN placeholder_names jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(placeholder_names) = 'array');

CREATE TABLE label_preferences (
  user_id        text  PRIMARY KEY,
  without_labels jsonb NOT NULL CHECK (jsonb_typeof(without_labels) = 'array'),
  only_labels    jsonb NOT NULL CHECK (jsonb_typeof(only_labels) = 'array')
);

-- No foreign key to dishes: an aversion is the person's data; a dish merge moves it to the dish that stays.
CREATE TABLE dish_aversions (
  user_id text        NOT NULL,
  dish_id bigint      NOT NULL CHECK (dish_id > 0),
  since   timestamptz NOT NULL,
  PRIMARY KEY (user_id, dish_id)
);
