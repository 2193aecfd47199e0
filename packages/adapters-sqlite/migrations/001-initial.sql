-- Meals carry their rating histogram so that statistics are one row read, whatever the number of ratings.
CREATE TABLE meals (
  meal_id   INTEGER PRIMARY KEY CHECK (meal_id > 0),
  name      TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  served_at INTEGER NOT NULL, -- milliseconds since the epoch, UTC
  rateable  INTEGER NOT NULL CHECK (rateable IN (0, 1)),
  rated_1   INTEGER NOT NULL DEFAULT 0 CHECK (rated_1 >= 0),
  rated_2   INTEGER NOT NULL DEFAULT 0 CHECK (rated_2 >= 0),
  rated_3   INTEGER NOT NULL DEFAULT 0 CHECK (rated_3 >= 0),
  rated_4   INTEGER NOT NULL DEFAULT 0 CHECK (rated_4 >= 0),
  rated_5   INTEGER NOT NULL DEFAULT 0 CHECK (rated_5 >= 0)
) STRICT;

CREATE INDEX meals_served_at ON meals (served_at);

-- The primary key is what guarantees that one user never holds two ratings of one meal.
CREATE TABLE ratings (
  meal_id INTEGER NOT NULL REFERENCES meals (meal_id),
  user_id TEXT    NOT NULL,
  rating  INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
  PRIMARY KEY (meal_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX ratings_by_user ON ratings (user_id, meal_id);

CREATE TABLE markings (
  user_id TEXT    NOT NULL,
  meal_id INTEGER NOT NULL REFERENCES meals (meal_id),
  PRIMARY KEY (user_id, meal_id)
) STRICT, WITHOUT ROWID;
