-- A batch of rating changes in one round trip (packages/adapters-postgres/README.md, "How a rating change stays
-- atomic across instances"): for meals whose rule fields an instance already knows, it decides each change for every
-- rating the user could hold (none, 1 to 5) before it asks anything, and when every one of those decisions sets the
-- same next rating, the change needs no read: this function takes it as (meal, user, next) and applies it to the
-- rating it finds under the meal's lock (`checked` false). A change decided on a read is a compare-and-set
-- (`checked` true): applied only where the rating found is still the one read (`expected`).
--
-- Two statements, in this order:
-- 1. lock the rows of the batch's meals that still have the rule fields the instance decided on (served, rateable, not
--    withdrawn), in meal id order: the lock order of every writer. A meal that changed is not locked; its changes
--    get no row in the answer and are run again after a read.
-- 2. In a snapshot taken after those locks (a PL/pgSQL statement of a volatile function takes its own), so it sees
--    every rating committed by the writers it waited for: find each change's rating row, apply the change where the
--    rating differs from `next` (insert, update or delete by the row found), add what each applied change moves
--    (-1 of the previous value, +1 of the next) to its meal and, through the meal's current dish, to the dish (rows
--    locked in id order), and answer every change of a locked meal: the rating found (`previous`), whether it was
--    applied, and its meal's and dish's histograms after the batch. A change whose rating differs from `next` but
--    whose write found another writer's row (a user's row inserted or changed by a writer that does not lock the
--    meal) is answered as not applied and runs again.
-- Same planner settings as the functions of migration 016: every row is found by its key.
CREATE FUNCTION meals_rating_batch_apply(read_meal_ids bigint[], read_served_ms bigint[], read_rateable boolean[],
  change_ns integer[], change_meal_ids bigint[], change_user_ids text[], change_next smallint[],
  change_expected smallint[], change_checked boolean[])
RETURNS TABLE (n integer, previous smallint, applied boolean, dish_id bigint,
  rated_1 integer, rated_2 integer, rated_3 integer, rated_4 integer, rated_5 integer,
  dish_1 integer, dish_2 integer, dish_3 integer, dish_4 integer, dish_5 integer)
LANGUAGE plpgsql
SET enable_seqscan = off SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
DECLARE
  locked_ids bigint[];
BEGIN
  SELECT coalesce(array_agg(m.meal_id), '{}') INTO locked_ids
  FROM (SELECT * FROM unnest(read_meal_ids, read_served_ms, read_rateable) AS r (meal_id, served_ms, rateable)
    ORDER BY r.meal_id) AS read
  CROSS JOIN LATERAL (
    SELECT meals.meal_id FROM meals
    WHERE meals.meal_id = read.meal_id AND meals.withdrawn_at IS NULL AND meals.rateable = read.rateable
      AND floor(extract(epoch FROM meals.served_at) * 1000)::bigint = read.served_ms
    LIMIT 1 FOR NO KEY UPDATE) AS m;

  RETURN QUERY
  WITH changes AS MATERIALIZED (
      SELECT c.n, c.meal_id, c.user_id, c.next, r.rating AS previous, r.row_id,
        NOT c.checked OR r.rating IS NOT DISTINCT FROM c.expected AS fits
      FROM unnest(change_ns, change_meal_ids, change_user_ids, change_next, change_expected, change_checked)
        AS c (n, meal_id, user_id, next, expected, checked)
      LEFT JOIN LATERAL (
        SELECT ratings.rating, ratings.ctid AS row_id FROM ratings
        WHERE ratings.meal_id = c.meal_id AND ratings.user_id = c.user_id LIMIT 1) AS r ON true
      WHERE c.meal_id = ANY (locked_ids)),
    inserted AS (
      INSERT INTO ratings (meal_id, user_id, rating)
      SELECT c.meal_id, c.user_id, c.next FROM changes c WHERE c.fits AND c.previous IS NULL AND c.next IS NOT NULL
      ON CONFLICT (meal_id, user_id) DO NOTHING
      RETURNING ratings.meal_id, ratings.user_id),
    updated AS (
      UPDATE ratings SET rating = c.next FROM changes c
      WHERE ratings.ctid = c.row_id AND c.fits AND c.next IS NOT NULL AND c.previous <> c.next
      RETURNING ratings.meal_id, ratings.user_id),
    deleted AS (
      DELETE FROM ratings USING changes c WHERE ratings.ctid = c.row_id AND c.fits AND c.next IS NULL
      RETURNING ratings.meal_id, ratings.user_id),
    applied AS MATERIALIZED (
      SELECT c.n, c.meal_id,
        (c.next IS NOT DISTINCT FROM 1)::int - (c.previous IS NOT DISTINCT FROM 1)::int AS d1,
        (c.next IS NOT DISTINCT FROM 2)::int - (c.previous IS NOT DISTINCT FROM 2)::int AS d2,
        (c.next IS NOT DISTINCT FROM 3)::int - (c.previous IS NOT DISTINCT FROM 3)::int AS d3,
        (c.next IS NOT DISTINCT FROM 4)::int - (c.previous IS NOT DISTINCT FROM 4)::int AS d4,
        (c.next IS NOT DISTINCT FROM 5)::int - (c.previous IS NOT DISTINCT FROM 5)::int AS d5
      FROM changes c
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
    dishes_after AS MATERIALIZED (
      UPDATE dishes SET rated_1 = dishes.rated_1 + s.d1, rated_2 = dishes.rated_2 + s.d2, rated_3 = dishes.rated_3 + s.d3,
        rated_4 = dishes.rated_4 + s.d4, rated_5 = dishes.rated_5 + s.d5
      FROM dish_deltas s JOIN dishes_locked USING (dish_id)
      WHERE dishes.dish_id = s.dish_id
      RETURNING dishes.dish_id, dishes.rated_1, dishes.rated_2, dishes.rated_3, dishes.rated_4, dishes.rated_5)
    -- Every change of a locked meal (the caller runs again those it wanted applied and were not): the meal after the batch (as updated, else as locked: nothing changed it), and
    -- its dish after the batch (as updated, else as it is now: another writer may hold it, the snapshot is exact).
    SELECT c.n, c.previous, a.n IS NOT NULL, meal.dish_id,
      meal.rated_1, meal.rated_2, meal.rated_3, meal.rated_4, meal.rated_5,
      dish.rated_1, dish.rated_2, dish.rated_3, dish.rated_4, dish.rated_5
    FROM changes c
    LEFT JOIN applied a ON a.n = c.n
    CROSS JOIN LATERAL (
      SELECT ma.dish_id, ma.rated_1, ma.rated_2, ma.rated_3, ma.rated_4, ma.rated_5 FROM meals_after ma
      WHERE ma.meal_id = c.meal_id
      UNION ALL
      SELECT meals.dish_id, meals.rated_1, meals.rated_2, meals.rated_3, meals.rated_4, meals.rated_5 FROM meals
      WHERE meals.meal_id = c.meal_id AND NOT EXISTS (SELECT FROM meals_after ma WHERE ma.meal_id = c.meal_id)
      LIMIT 1) AS meal
    LEFT JOIN LATERAL (
      SELECT da.rated_1, da.rated_2, da.rated_3, da.rated_4, da.rated_5 FROM dishes_after da
      WHERE da.dish_id = meal.dish_id
      UNION ALL
      SELECT dishes.rated_1, dishes.rated_2, dishes.rated_3, dishes.rated_4, dishes.rated_5 FROM dishes
      WHERE dishes.dish_id = meal.dish_id AND NOT EXISTS (SELECT FROM dishes_after da WHERE da.dish_id = meal.dish_id)
      LIMIT 1) AS dish ON true;
END
$$;
