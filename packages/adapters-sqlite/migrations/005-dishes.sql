-- Dishes: every serving of "the same meal" of one canteen shares a dish, which keeps the histogram of all of their
-- ratings (maintained with every rating change, as the meal's is, so that reads never count rows). Which dish a name
-- belongs to is decided by its key, dishNameKey(name) (Unicode NFKC and full case folding), which SQL cannot compute:
-- the adapter assigns dishes in TypeScript on every meal write, and assigns the meals of an upgraded file right after
-- this migration, at open (backfillDishes). Until then meals.dish_id is NULL; no write leaves it so.
--
-- AUTOINCREMENT: a dish id that a merge deleted never comes back naming another dish.
CREATE TABLE dishes (
  dish_id    INTEGER PRIMARY KEY AUTOINCREMENT CHECK (dish_id > 0),
  canteen_id TEXT    NOT NULL REFERENCES canteens (canteen_id),
  name       TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 250), -- the name it was first served under
  rated_1    INTEGER NOT NULL DEFAULT 0 CHECK (rated_1 >= 0),
  rated_2    INTEGER NOT NULL DEFAULT 0 CHECK (rated_2 >= 0),
  rated_3    INTEGER NOT NULL DEFAULT 0 CHECK (rated_3 >= 0),
  rated_4    INTEGER NOT NULL DEFAULT 0 CHECK (rated_4 >= 0),
  rated_5    INTEGER NOT NULL DEFAULT 0 CHECK (rated_5 >= 0)
) STRICT;

-- Every name (alias) a dish is known by in its canteen, by name key: a write finds its meal's dish here, a search
-- reads search_key (dishSearchKey: the name key without diacritics). A merge points the source's names at the target.
CREATE TABLE dish_names (
  canteen_id TEXT    NOT NULL REFERENCES canteens (canteen_id),
  name_key   TEXT    NOT NULL,
  search_key TEXT    NOT NULL,
  name       TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 250), -- the first spelling seen of this key
  dish_id    INTEGER NOT NULL REFERENCES dishes (dish_id),
  PRIMARY KEY (canteen_id, name_key)
) STRICT, WITHOUT ROWID;

-- A dish's names, and the foreign key check when a merge deletes a dish.
CREATE INDEX dish_names_by_dish ON dish_names (dish_id);

ALTER TABLE meals ADD COLUMN dish_id INTEGER REFERENCES dishes (dish_id);
-- When the meal was withdrawn (milliseconds since the epoch); NULL while it is served. A write of the meal clears it.
ALTER TABLE meals ADD COLUMN withdrawn_at INTEGER;

-- A dish's servings by time: its figures (count, last, next) and its page of servings are ranges of this index, which
-- holds withdrawn_at so that the figures never read the table; a merge and the foreign key find the servings by it.
CREATE INDEX meals_by_dish_served ON meals (dish_id, served_at, withdrawn_at);
