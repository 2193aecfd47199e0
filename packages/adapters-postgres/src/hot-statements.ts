/**
 * The hot statements (a rating batch's read and write, a marking batch) in two forms with the same plans:
 *
 * - `functions`: the PL/pgSQL functions of migration 016, whose `SET` clauses pin the planner settings while they
 *   run, and the apply of a rating batch as a pipeline of the statements of migration 020's function, the first of
 *   which sets the same settings for the transaction (`applyPipeline`). They need no session state, so they are what
 *   a transaction pooler (pool mode `transaction`) gets.
 * - `bare`: the functions' statements themselves, sent as named (prepared) statements on a pool of their own whose
 *   sessions get the same settings in the startup packet (`hotSessionOptions`). The PL/pgSQL call, its `RETURN QUERY`
 *   and the `SET` clauses' save and restore cost a third of these statements' PostgreSQL time (docs/benchmarks.md,
 *   "Where the rest of the time goes"). Only the hot statements run on that pool: every other statement plans with
 *   the server's defaults.
 *
 * Each bare text is its function's body with the parameters numbered; `test/hot-statement-plans.test.ts` checks the
 * plans of both forms on a fresh database.
 */
export type HotStatementForm = 'functions' | 'bare';

/**
 * The planner settings of every hot statement (the `SET` clauses of the functions of migrations 016 and 020): given to
 * the bare statements' sessions at their start, and to the apply pipeline's transaction by its first statement.
 */
const hotPlannerSettings = Object.entries({ enable_seqscan: 'off', plan_cache_mode: 'force_generic_plan' });

/**
 * The planner settings of the sessions that run the bare statements, as libpq `options`: with sequential scans off the
 * only path left inside each per-item lookup is the key's index, and each session plans each statement once.
 */
export const hotSessionOptions = hotPlannerSettings.map(([name, value]) => `-c ${name}=${value}`).join(' ');

export interface NamedStatement {
  readonly name: string;
  readonly rowMode: 'array';
  readonly text: string;
}

const readFunction: NamedStatement = {
  name: 'meals-rating-batch-read',
  rowMode: 'array',
  text: 'SELECT * FROM meals_rating_batch_read($1::bigint[], $2::text[])',
};

const readBare: NamedStatement = {
  name: 'meals-rating-batch-read-bare',
  rowMode: 'array',
  text: `SELECT g.n::int, m.name, floor(extract(epoch FROM m.served_at) * 1000)::bigint, m.rateable, m.dish_id,
    m.rated_1, m.rated_2, m.rated_3, m.rated_4, m.rated_5,
    d.rated_1, d.rated_2, d.rated_3, d.rated_4, d.rated_5, r.rating
  FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS g (meal_id, user_id, n)
  JOIN LATERAL (
    SELECT meals.name, meals.served_at, meals.rateable, meals.dish_id,
      meals.rated_1, meals.rated_2, meals.rated_3, meals.rated_4, meals.rated_5
    FROM meals WHERE meals.meal_id = g.meal_id AND meals.withdrawn_at IS NULL LIMIT 1) AS m ON true
  LEFT JOIN LATERAL (
    SELECT dishes.rated_1, dishes.rated_2, dishes.rated_3, dishes.rated_4, dishes.rated_5
    FROM dishes WHERE dishes.dish_id = m.dish_id LIMIT 1) AS d ON true
  LEFT JOIN LATERAL (
    SELECT ratings.rating FROM ratings WHERE ratings.meal_id = g.meal_id AND ratings.user_id = g.user_id LIMIT 1) AS r ON true`,
};

/**
 * The meals of a rating batch ($1 to $3: id, served instant in ms, rateable) that still have the rule fields its changes
 * were decided on, their rows locked in meal id order (the lock order of every writer), as `m.meal_id`: the first step
 * of both rating writes.
 */
const mealsStillAsRead = `FROM (SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::boolean[]) AS r (meal_id, served_ms, rateable)
  ORDER BY r.meal_id) AS read
CROSS JOIN LATERAL (
  SELECT meals.meal_id FROM meals
  WHERE meals.meal_id = read.meal_id AND meals.withdrawn_at IS NULL AND meals.rateable = read.rateable
    AND floor(extract(epoch FROM meals.served_at) * 1000)::bigint = read.served_ms
  LIMIT 1 FOR NO KEY UPDATE) AS m`;

/**
 * The part both rating writes share (the bare write and the apply), after the CTE `applied` (each applied change with
 * its meal and its deltas `d1` to `d5`): the deltas summed by meal and added to the meals, then summed by dish and the
 * dishes' rows locked in id order, for the statement's `dishes_after` to update.
 */
const deltasAndDishLocks = `  meal_deltas AS (
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
      SELECT dishes.dish_id FROM dishes WHERE dishes.dish_id = wanted.dish_id LIMIT 1 FOR NO KEY UPDATE) AS locked_dish),`;

const writeBare: NamedStatement = {
  name: 'meals-rating-batch-write-bare',
  rowMode: 'array',
  text: `WITH locked AS MATERIALIZED (
      SELECT m.meal_id
      ${mealsStillAsRead}),
    changes AS MATERIALIZED (
      SELECT * FROM unnest($4::int[], $5::bigint[], $6::text[], $7::smallint[], $8::smallint[],
          $9::int[], $10::int[], $11::int[], $12::int[], $13::int[])
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
${deltasAndDishLocks}
    dishes_after AS (
      UPDATE dishes SET rated_1 = dishes.rated_1 + s.d1, rated_2 = dishes.rated_2 + s.d2, rated_3 = dishes.rated_3 + s.d3,
        rated_4 = dishes.rated_4 + s.d4, rated_5 = dishes.rated_5 + s.d5
      FROM dish_deltas s JOIN dishes_locked USING (dish_id)
      WHERE dishes.dish_id = s.dish_id
      RETURNING dishes.dish_id, dishes.rated_1, dishes.rated_2, dishes.rated_3, dishes.rated_4, dishes.rated_5)
  SELECT a.n, m.dish_id, m.rated_1, m.rated_2, m.rated_3, m.rated_4, m.rated_5,
    d.rated_1, d.rated_2, d.rated_3, d.rated_4, d.rated_5
  FROM applied a JOIN meals_after m ON m.meal_id = a.meal_id LEFT JOIN dishes_after d ON d.dish_id = m.dish_id`,
};

const markFunction: NamedStatement = {
  name: 'meals-marking-batch',
  rowMode: 'array',
  text: 'SELECT n FROM meals_marking_batch($1::text[], $2::bigint[], $3::boolean[])',
};

const markBare: NamedStatement = {
  name: 'meals-marking-batch-bare',
  rowMode: 'array',
  text: `WITH items AS MATERIALIZED (
      SELECT i.n::int AS n, i.user_id, i.meal_id, i.marked
      FROM unnest($1::text[], $2::bigint[], $3::boolean[]) WITH ORDINALITY AS i (user_id, meal_id, marked, n)
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
  SELECT items.n FROM items`,
};

/**
 * A rating batch decided without a read, applied in one round trip: the two statements of migration 020's function
 * `meals_rating_batch_apply`, sent as a pipeline (statement-pipeline.ts) after a statement that sets the function's
 * planner settings for the transaction. One Sync ends the three, so they are one transaction, and the apply statement
 * takes its snapshot after the meals' locks, as the function's second statement does; the meals the lock statement
 * locked are handed on in a setting of the transaction (`meals.rating_batch_locked`), as the function hands its
 * variable on. Without the PL/pgSQL call, its `RETURN QUERY` and its `SET` clauses, PostgreSQL spends less on each
 * write (docs/benchmarks.md, "The apply without PL/pgSQL"). The function stays for instances of the release before.
 */
export const applyPipeline = {
  label: 'meals-rating-batch-apply',
  /** The settings of the functions of migrations 016 and 020, for the rest of the transaction. */
  settings: {
    name: 'meals-hot-settings',
    text: `SELECT ${hotPlannerSettings.map(([name, value]) => `set_config('${name}', '${value}', true)`).join(', ')}`,
  },
  /** The function's first statement: the batch's meals that still have the rule fields decided on, locked in id order. */
  lock: {
    name: 'meals-rating-batch-lock',
    text: `SELECT set_config('meals.rating_batch_locked', coalesce(array_agg(m.meal_id), '{}')::text, true)
${mealsStillAsRead}`,
  },
  /** The function's second statement, on the locked meals' changes; its rows are those of the function (ApplyRow). */
  apply: {
    name: 'meals-rating-batch-apply-locked',
    text: `WITH changes AS MATERIALIZED (
    SELECT c.n, c.meal_id, c.user_id, c.next, r.rating AS previous, r.row_id,
      NOT c.checked OR r.rating IS NOT DISTINCT FROM c.expected AS fits
    FROM unnest($1::int[], $2::bigint[], $3::text[], $4::smallint[], $5::smallint[], $6::boolean[])
      AS c (n, meal_id, user_id, next, expected, checked)
    LEFT JOIN LATERAL (
      SELECT ratings.rating, ratings.ctid AS row_id FROM ratings
      WHERE ratings.meal_id = c.meal_id AND ratings.user_id = c.user_id LIMIT 1) AS r ON true
    WHERE c.meal_id = ANY (current_setting('meals.rating_batch_locked')::bigint[])),
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
${deltasAndDishLocks}
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
    LIMIT 1) AS dish ON true`,
  },
} as const;

/**
 * How a form writes a rating batch: the `functions` form applies changes decided ahead as well as those decided on a
 * read (the apply pipeline; the functions `meals_rating_batch_write` of 016 and `meals_rating_batch_apply` of 020 stay
 * for instances of the releases before); the bare form writes only changes decided on a read, as compare-and-sets.
 */
export type RatingBatchWrite =
  | { readonly takes: 'changes decided ahead too'; readonly pipeline: typeof applyPipeline }
  | { readonly takes: 'changes decided on a read'; readonly statement: NamedStatement };

/** The hot statements in one form; each takes the parameters of its function, in the function's order. */
export interface HotStatements {
  readonly readRatingBatch: NamedStatement;
  readonly writeRatingBatch: RatingBatchWrite;
  readonly markBatch: NamedStatement;
}

export const hotStatements: Readonly<Record<HotStatementForm, HotStatements>> = {
  functions: {
    readRatingBatch: readFunction,
    writeRatingBatch: { takes: 'changes decided ahead too', pipeline: applyPipeline },
    markBatch: markFunction,
  },
  bare: {
    readRatingBatch: readBare,
    writeRatingBatch: { takes: 'changes decided on a read', statement: writeBare },
    markBatch: markBare,
  },
};
