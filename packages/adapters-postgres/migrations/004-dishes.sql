-- Dishes: every serving of "the same meal" of one canteen shares a dish, which keeps the histogram of all of their
-- ratings (maintained with every rating change, as the meal's is, so that reads never count rows). Which dish a name
-- belongs to is decided by its key, dishNameKey(name) (Unicode NFKC and full case folding as JavaScript does them),
-- which PostgreSQL's lower() and normalize() would compute differently: the adapter assigns dishes in TypeScript on
-- every meal write, and assigns the meals of an upgraded database right after this migration (backfillDishes, which
-- `migrate` runs under its advisory lock). Until then meals.dish_id is NULL; no write leaves it so.
CREATE TABLE dishes (
  dish_id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  canteen_id text    NOT NULL REFERENCES canteens (canteen_id),
  name       text    NOT NULL CHECK (char_length(name) BETWEEN 1 AND 250), -- the name it was first served under
  rated_1    integer NOT NULL DEFAULT 0 CHECK (rated_1 >= 0),
  rated_2    integer NOT NULL DEFAULT 0 CHECK (rated_2 >= 0),
  rated_3    integer NOT NULL DEFAULT 0 CHECK (rated_3 >= 0),
  rated_4    integer NOT NULL DEFAULT 0 CHECK (rated_4 >= 0),
  rated_5    integer NOT NULL DEFAULT 0 CHECK (rated_5 >= 0),
  -- The target of the foreign keys below that also name the canteen: a name or a serving is always of its dish's canteen.
  CONSTRAINT dishes_id_canteen_key UNIQUE (dish_id, canteen_id)
);

-- Every name (alias) a dish is known by in its canteen, by name key: a write finds its meal's dish here, a search
-- reads search_key (dishSearchKey: the name key without diacritics). A merge points the source's names at the target.
CREATE TABLE dish_names (
  canteen_id text   NOT NULL,
  name_key   text   NOT NULL,
  search_key text   NOT NULL,
  name       text   NOT NULL CHECK (char_length(name) BETWEEN 1 AND 250), -- the first spelling seen of this key
  dish_id    bigint NOT NULL,
  PRIMARY KEY (canteen_id, name_key),
  CONSTRAINT dish_names_dish_fkey FOREIGN KEY (dish_id, canteen_id) REFERENCES dishes (dish_id, canteen_id)
);

-- A dish's names, and the foreign key check when a merge deletes a dish.
CREATE INDEX dish_names_by_dish ON dish_names (dish_id);

-- Both columns are NULL at first, so PostgreSQL adds them without rewriting the table. withdrawn_at: when the meal
-- was withdrawn (a menu correction); NULL while it is served, and a write of the meal clears it.
ALTER TABLE meals
  ADD COLUMN dish_id bigint,
  ADD COLUMN withdrawn_at timestamptz,
  -- MATCH SIMPLE: a meal without a dish (only before the backfill) is not checked.
  ADD CONSTRAINT meals_dish_fkey FOREIGN KEY (dish_id, canteen_id) REFERENCES dishes (dish_id, canteen_id);

-- A dish's servings by time: its figures (count, last, next) and its page of servings are ranges of this index; a
-- merge, the foreign key and the backfill (dish_id IS NULL) find the servings by it.
CREATE INDEX meals_by_dish ON meals (dish_id, served_at);
