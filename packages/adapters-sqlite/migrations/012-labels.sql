-- Labels (issue 27). Meals carry the codes of the label vocabulary, with their parents, sorted, as a JSON array;
-- canteens their own note spellings ({"mit Sesam": "sesame"}) and placeholder names; users what they want left out
-- of their menus (label preferences) and the dishes they never want to see (aversions). ADD COLUMN rewrites no row:
-- existing meals carry no label until they are written again.
ALTER TABLE meals ADD COLUMN labels TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(labels) AND json_type(labels) = 'array');

ALTER TABLE canteens ADD COLUMN note_labels TEXT NOT NULL DEFAULT '{}'
  CHECK (json_valid(note_labels) AND json_type(note_labels) = 'object');
ALTER TABLE canteens ADD COLUMN placeholder_names TEXT NOT NULL DEFAULT '[]'
  CHECK (json_valid(placeholder_names) AND json_type(placeholder_names) = 'array');

CREATE TABLE label_preferences (
  user_id        TEXT PRIMARY KEY,
  without_labels TEXT NOT NULL CHECK (json_valid(without_labels) AND json_type(without_labels) = 'array'),
  only_labels    TEXT NOT NULL CHECK (json_valid(only_labels) AND json_type(only_labels) = 'array')
) STRICT, WITHOUT ROWID;

-- No foreign key to dishes: an aversion is the person's data; a dish merge moves it to the dish that stays.
CREATE TABLE dish_aversions (
  user_id TEXT    NOT NULL,
  dish_id INTEGER NOT NULL CHECK (dish_id > 0),
  since   INTEGER NOT NULL, -- milliseconds since the epoch, UTC
  PRIMARY KEY (user_id, dish_id)
) STRICT, WITHOUT ROWID;
