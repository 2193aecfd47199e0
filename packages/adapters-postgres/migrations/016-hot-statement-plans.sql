-- The hot statements (a batch of rating changes: its read and its write; a batch of markings) as functions whose plans
-- do not depend on table statistics. Each looks up a few meals, dishes, ratings and markings by key for an array of
-- at most a few hundred items; on a small or never-analysed table the planner estimated that hashing a sequential
-- scan of every meal was cheaper, which cost PostgreSQL a fifth of its throughput under the rating load
-- (docs/benchmarks.md, "PostgreSQL at lunch peak"), and a plan made while `ratings` was empty scanned all of it once
-- it had grown. So every row is found by a key lookup the planner cannot turn into a scan:
-- - a LATERAL subquery with LIMIT 1 per array item: it cannot be flattened into a join, so it runs once per item with
--   the item's key, and with sequential scans off the only path left in it is an index scan on that key;
-- - rows found that way are updated or deleted by their `ctid` (a TID scan), not joined again; should another writer
--   change such a row in between, PostgreSQL re-checks the new version, whose ctid differs: the change is not
--   applied and its compare-and-set fails (the batch runs it again), exactly like a changed value.
-- The settings hold only while the function runs; every other statement plans as before. One generic plan per session
-- (plan_cache_mode): PL/pgSQL keeps it, so each statement is planned once per connection, not at every call.
-- `test/hot-statement-plans.test.ts` checks the plans these functions run with on a fresh database.

-- The read of a rating batch: for each (meal, user), in batch order (`n`, 1-based), the meal's rule fields and
-- histogram, its dish's histogram and the user's rating. A missing or withdrawn meal has no row.
CREATE FUNCTION meals_rating_batch_read(meal_ids bigint[], user_ids text[])
RETURNS TABLE (n integer, name text, served_ms bigint, rateable boolean, dish_id bigint,
  rated_1 integer, rated_2 integer, rated_3 integer, rated_4 integer, rated_5 integer,
  dish_1 integer, dish_2 integer, dish_3 integer, dish_4 integer, dish_5 integer, rating smallint)
LANGUAGE plpgsql
SET enable_seqscan = off SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT g.n::int, m.name, floor(extract(epoch FROM m.served_at) * 1000)::bigint, m.rateable, m.dish_id,
      m.rated_1, m.rated_2, m.rated_3, m.rated_4, m.rated_5,
      d.rated_1, d.rated_2, d.rated_3, d.rated_4, d.rated_5, r.rating
    FROM unnest(meal_ids, user_ids) WITH ORDINALITY AS g (meal_id, user_id, n)
    JOIN LATERAL (
      SELECT meals.name, meals.served_at, meals.rateable, meals.dish_id,
        meals.rated_1, meals.rated_2, meals.rated_3, meals.rated_4, meals.rated_5
      FROM meals WHERE meals.meal_id = g.meal_id AND meals.withdrawn_at IS NULL LIMIT 1) AS m ON true
    LEFT JOIN LATERAL (
      SELECT dishes.rated_1, dishes.rated_2, dishes.rated_3, dishes.rated_4, dishes.rated_5
      FROM dishes WHERE dishes.dish_id = m.dish_id LIMIT 1) AS d ON true
    LEFT JOIN LATERAL (
      SELECT ratings.rating FROM ratings WHERE ratings.meal_id = g.meal_id AND ratings.user_id = g.user_id LIMIT 1) AS r ON true;
END
$$;

-- The write of a rating batch, one statement (packages/adapters-postgres/README.md, "How a rating change stays atomic
-- across instances"): lock the meal rows that still have the rule fields read, in id order; apply each change as a
-- compare-and-set of its rating row; add the applied changes' deltas to the meals and, through each meal's current
-- dish, to the dishes (rows locked in id order); answer, per applied change, the histograms after the batch.
CREATE FUNCTION meals_rating_batch_write(read_meal_ids bigint[], read_served_ms bigint[], read_rateable boolean[],
  change_ns integer[], change_meal_ids bigint[], change_user_ids text[], change_previous smallint[], change_next smallint[],
  delta_1 integer[], delta_2 integer[], delta_3 integer[], delta_4 integer[], delta_5 integer[])
RETURNS TABLE (n integer, dish_id bigint, rated_1 integer, rated_2 integer, rated_3 integer, rated_4 integer, rated_5 integer,
  dish_1 integer, dish_2 integer, dish_3 integer, dish_4 integer, dish_5 integer)
LANGUAGE plpgsql
SET enable_seqscan = off SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH locked AS MATERIALIZED (
      -- In meal id order (the sorted items drive the lookups one after the other): the lock order of every writer.
      SELECT m.meal_id
      FROM (SELECT * FROM unnest(read_meal_ids, read_served_ms, read_rateable) AS r (meal_id, served_ms, rateable)
        ORDER BY r.meal_id) AS read
      CROSS JOIN LATERAL (
        SELECT meals.meal_id FROM meals
        WHERE meals.meal_id = read.meal_id AND meals.withdrawn_at IS NULL AND meals.rateable = read.rateable
          AND floor(extract(epoch FROM meals.served_at) * 1000)::bigint = read.served_ms
        LIMIT 1 FOR NO KEY UPDATE) AS m),
    changes AS MATERIALIZED (
      SELECT * FROM unnest(change_ns, change_meal_ids, change_user_ids, change_previous, change_next,
          delta_1, delta_2, delta_3, delta_4, delta_5)
        AS c (n, meal_id, user_id, previous, next, d1, d2, d3, d4, d5)
      WHERE c.meal_id IN (SELECT locked.meal_id FROM locked)),
    inserted AS (
      INSERT INTO ratings (meal_id, user_id, rating)
      SELECT c.meal_id, c.user_id, c.next FROM changes c WHERE c.previous IS NULL AND c.next IS NOT NULL
      ON CONFLICT (meal_id, user_id) DO NOTHING
      RETURNING ratings.meal_id, ratings.user_id),
    found AS MATERIALIZED (
      SELECT c.next, r.row_id FROM changes c
      CROSS JOIN LATERAL (
        SELECT ratings.ctid AS row_id FROM ratings
        WHERE ratings.meal_id = c.meal_id AND ratings.user_id = c.user_id AND ratings.rating = c.previous LIMIT 1) AS r
      WHERE c.previous IS NOT NULL),
    updated AS (
      UPDATE ratings SET rating = f.next FROM found f WHERE ratings.ctid = f.row_id AND f.next IS NOT NULL
      RETURNING ratings.meal_id, ratings.user_id),
    deleted AS (
      DELETE FROM ratings USING found f WHERE ratings.ctid = f.row_id AND f.next IS NULL
      RETURNING ratings.meal_id, ratings.user_id),
    applied AS MATERIALIZED (
      SELECT c.* FROM changes c
      JOIN (SELECT * FROM inserted UNION ALL SELECT * FROM updated UNION ALL SELECT * FROM deleted) AS done
        ON done.meal_id = c.meal_id AND done.user_id = c.user_id),
    meal_deltas AS (
      SELECT a.meal_id, sum(a.d1)::int AS d1, sum(a.d2)::int AS d2, sum(a.d3)::int AS d3, sum(a.d4)::int AS d4,
        sum(a.d5)::int AS d5
      FROM applied a GROUP BY a.meal_id),
    meals_after AS MATERIALIZED (
      UPDATE meals SET rated_1 = meals.rated_1 + s.d1, rated_2 = meals.rated_2 + s.d2, rated_3 = meals.rated_3 + s.d3,
        rated_4 = meals.rated_4 + s.d4, rated_5 = meals.rated_5 + s.d5
      FROM meal_deltas s WHERE meals.meal_id = s.meal_id
      RETURNING meals.meal_id, meals.dish_id, meals.rated_1, meals.rated_2, meals.rated_3, meals.rated_4, meals.rated_5,
        s.d1, s.d2, s.d3, s.d4, s.d5),
    dish_deltas AS MATERIALIZED (
      SELECT ma.dish_id, sum(ma.d1)::int AS d1, sum(ma.d2)::int AS d2, sum(ma.d3)::int AS d3, sum(ma.d4)::int AS d4,
        sum(ma.d5)::int AS d5
      FROM meals_after ma WHERE ma.dish_id IS NOT NULL GROUP BY ma.dish_id),
    dishes_locked AS MATERIALIZED (
      SELECT locked_dish.dish_id
      FROM (SELECT dd.dish_id FROM dish_deltas dd ORDER BY dd.dish_id) AS wanted
      CROSS JOIN LATERAL (
        SELECT dishes.dish_id FROM dishes WHERE dishes.dish_id = wanted.dish_id LIMIT 1 FOR NO KEY UPDATE) AS locked_dish),
    dishes_after AS (
      UPDATE dishes SET rated_1 = dishes.rated_1 + s.d1, rated_2 = dishes.rated_2 + s.d2, rated_3 = dishes.rated_3 + s.d3,
        rated_4 = dishes.rated_4 + s.d4, rated_5 = dishes.rated_5 + s.d5
      FROM dish_deltas s JOIN dishes_locked USING (dish_id)
      WHERE dishes.dish_id = s.dish_id
      RETURNING dishes.dish_id, dishes.rated_1, dishes.rated_2, dishes.rated_3, dishes.rated_4, dishes.rated_5)
    SELECT a.n, m.dish_id, m.rated_1, m.rated_2, m.rated_3, m.rated_4, m.rated_5,
      d.rated_1, d.rated_2, d.rated_3, d.rated_4, d.rated_5
    FROM applied a JOIN meals_after m ON m.meal_id = a.meal_id LEFT JOIN dishes_after d ON d.dish_id = m.dish_id;
END
$$;

-- A batch of markings: each (user, meal, marked), in batch order (`n`, 1-based), sets or clears the user's marking
-- of the meal if the meal exists and is not withdrawn; the answer holds the positions whose meal did. A batch never
-- holds one (user, meal) twice. New markings are inserted in key order, as every batch does: two batches of other
-- instances that insert the same markings then wait for each other in one order, not in a cycle.
CREATE FUNCTION meals_marking_batch(user_ids text[], meal_ids bigint[], marks boolean[])
RETURNS TABLE (n integer)
LANGUAGE plpgsql
SET enable_seqscan = off SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH items AS MATERIALIZED (
      SELECT i.n::int AS n, i.user_id, i.meal_id, i.marked
      FROM unnest(user_ids, meal_ids, marks) WITH ORDINALITY AS i (user_id, meal_id, marked, n)
      CROSS JOIN LATERAL (SELECT FROM meals WHERE meals.meal_id = i.meal_id AND meals.withdrawn_at IS NULL LIMIT 1) AS meal),
    inserted AS (
      INSERT INTO markings (user_id, meal_id)
      SELECT items.user_id, items.meal_id FROM items WHERE items.marked ORDER BY items.user_id, items.meal_id
      ON CONFLICT DO NOTHING),
    deleted AS (
      DELETE FROM markings
      USING (
        SELECT found.row_id FROM items
        CROSS JOIN LATERAL (
          SELECT markings.ctid AS row_id FROM markings
          WHERE markings.user_id = items.user_id AND markings.meal_id = items.meal_id LIMIT 1) AS found
        WHERE NOT items.marked) AS gone
      WHERE markings.ctid = gone.row_id)
  SELECT items.n FROM items;
END
$$;
