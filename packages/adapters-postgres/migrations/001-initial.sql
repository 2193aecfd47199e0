-- The same schema as the SQLite adapter's 001-initial.sql, in PostgreSQL's types.
-- Meals carry their rating histogram so that statistics are one row read, whatever the number of ratings;
-- the meal row is also what a rating change locks, so changes of one meal queue on it across every instance.
CREATE TABLE meals (
  meal_id   bigint      PRIMARY KEY CHECK (meal_id > 0 AND meal_id <= 9007199254740991),
  name      text        NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  served_at timestamptz NOT NULL,
  rateable  boolean     NOT NULL,
  rated_1   integer     NOT NULL DEFAULT 0 CHECK (rated_1 >= 0),
  rated_2   integer     NOT NULL DEFAULT 0 CHECK (rated_2 >= 0),
  rated_3   integer     NOT NULL DEFAULT 0 CHECK (rated_3 >= 0),
  rated_4   integer     NOT NULL DEFAULT 0 CHECK (rated_4 >= 0),
  rated_5   integer     NOT NULL DEFAULT 0 CHECK (rated_5 >= 0)
);

CREATE INDEX meals_served_at ON meals (served_at);

-- The primary key is what guarantees that one user never holds two ratings of one meal.
CREATE TABLE ratings (
  meal_id bigint   NOT NULL REFERENCES meals (meal_id),
  user_id text     NOT NULL,
  rating  smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
  PRIMARY KEY (meal_id, user_id)
);

CREATE INDEX ratings_by_user ON ratings (user_id, meal_id);

CREATE TABLE markings (
  user_id text   NOT NULL,
  meal_id bigint NOT NULL REFERENCES meals (meal_id),
  PRIMARY KEY (user_id, meal_id)
);

