import {
  defaultCanteenId,
  dishNameKey,
  dishSearchKey,
  type CanteenId,
  type DishId,
  type MealId,
  type RatingHistogram,
} from '@canteen-meals/domain';
import type { PoolClient } from 'pg';
import { histogramColumns, histogramFromRow, type HistogramRow } from './meal-rows.js';
import { ConcurrentChangeError } from './transaction.js';

/** What placing a meal in its dish reads of it. */
export interface Serving {
  readonly id: MealId;
  readonly name: string;
  readonly canteenId?: CanteenId | undefined;
}

/** Where the written meals belong, and which of them existed (their rows are locked now). */
export interface Placement {
  readonly dishOf: ReadonlyMap<MealId, DishId>;
  readonly existing: ReadonlySet<MealId>;
}

interface DishName {
  readonly canteenId: CanteenId;
  readonly nameKey: string;
  readonly searchKey: string;
  readonly name: string;
}

const nameIdOf = (canteenId: CanteenId, nameKey: string) => `${canteenId}\u0000${nameKey}`;

/**
 * Finds the dish of every meal about to be written (see DishRepository): creates the dishes of names never seen, locks
 * the rows of the meals that exist and then those of their old and new dishes (meal rows first, then dish rows, each
 * in id order: the lock order of every writer), and moves the histogram of each existing meal whose dish changes from
 * the old dish to the new one. The caller then writes the meals with `dishOf`, in the same transaction.
 * `alsoLock` names more meals the caller is about to write (an import's withdrawals), locked in the same id order.
 */
export async function placeInDishes(
  client: PoolClient,
  meals: readonly Serving[],
  { alsoLock = [] }: { readonly alsoLock?: readonly MealId[] } = {},
): Promise<Placement> {
  const nameOf = new Map<MealId, string>();
  const names = new Map<string, DishName>();
  for (const meal of meals) {
    const canteenId = meal.canteenId ?? defaultCanteenId;
    const nameKey = dishNameKey(meal.name);
    const id = nameIdOf(canteenId, nameKey);
    nameOf.set(meal.id, id);
    // A new dish is named after the first meal of the batch with its key (the backfill passes them in id order).
    if (!names.has(id)) names.set(id, { canteenId, nameKey, searchKey: dishSearchKey(meal.name), name: meal.name });
  }
  const dishOfName = await dishesNamed(client, [...names.values()]);

  const ids = [...new Set([...meals.map((meal) => meal.id), ...alsoLock])].sort((a, b) => a - b);
  const { rows } =
    ids.length === 0
      ? { rows: [] }
      : await client.query<HistogramRow & { meal_id: string; dish_id: string | null }>(
          `SELECT meal_id, dish_id, ${histogramColumns} FROM meals WHERE meal_id = ANY ($1::bigint[])
           ORDER BY meal_id FOR NO KEY UPDATE`,
          [ids],
        );
  const before = new Map(
    rows.filter((row) => nameOf.has(Number(row.meal_id))).map((row) => [Number(row.meal_id), row]),
  );

  // The old dishes cannot go away now: a merge moves their servings first, and those rows are ours. A new name's dish
  // can, when a merge deleted it after the lookup: then the name points at the merge's target, looked up again.
  for (let attempt = 1; ; attempt++) {
    const wanted = new Set(dishOfName.values());
    for (const row of before.values()) if (row.dish_id !== null) wanted.add(Number(row.dish_id));
    const present = await lockDishes(client, [...wanted]);
    const gone = [...names].filter(([id]) => !present.has(dishOfName.get(id)!));
    if (gone.length === 0) break;
    if (attempt === 3) throw new ConcurrentChangeError('the dishes of the written names keep being merged away');
    for (const [id, dishId] of await lookUp(
      client,
      gone.map(([, name]) => name),
    ))
      dishOfName.set(id, dishId);
  }

  const dishOf = new Map<MealId, DishId>();
  const deltas = new Map<DishId, number[]>();
  const shift = (dishId: DishId, histogram: RatingHistogram, sign: 1 | -1) => {
    const delta = deltas.get(dishId) ?? [0, 0, 0, 0, 0];
    histogram.forEach((count, index) => (delta[index]! += sign * count));
    deltas.set(dishId, delta);
  };
  for (const meal of meals) {
    const dishId = dishOfName.get(nameOf.get(meal.id)!)!;
    dishOf.set(meal.id, dishId);
    const row = before.get(meal.id);
    const from = row?.dish_id == null ? null : Number(row.dish_id);
    if (row === undefined || from === dishId) continue;
    const histogram = histogramFromRow(row);
    shift(dishId, histogram, 1);
    if (from !== null) shift(from, histogram, -1);
  }
  await applyDeltas(client, deltas);
  return { dishOf, existing: new Set(before.keys()) };
}

/**
 * The dish of every name, creating a dish for each name never seen: one statement. New dishes draw their ids in the
 * order the names come (a batch's first meal gets the lowest), only for names not seen before; the names then go in
 * (canteen, key) byte order, the order of every writer, so two writers of the same new names queue on the first one's
 * uncommitted name instead of deadlocking, and ON CONFLICT DO NOTHING leaves the second without a dish of its own: it
 * finds the first one's (one name, one dish). Name and dish are inserted in one statement, as the foreign key is
 * checked at its end.
 */
async function dishesNamed(client: PoolClient, names: readonly DishName[]): Promise<Map<string, DishId>> {
  if (names.length === 0) return new Map();
  const { rows } = await client.query<{ canteen_id: string; name_key: string; dish_id: string }>(
    `WITH given AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY
         AS given (canteen_id, name_key, search_key, name, n)),
     fresh AS MATERIALIZED (
       SELECT given.*, nextval(pg_get_serial_sequence('dishes', 'dish_id')) AS dish_id
       FROM given
       WHERE NOT EXISTS (SELECT 1 FROM dish_names known WHERE known.canteen_id = given.canteen_id AND known.name_key = given.name_key)
       ORDER BY n),
     named AS (
       INSERT INTO dish_names (canteen_id, name_key, search_key, name, dish_id)
       SELECT canteen_id, name_key, search_key, name, dish_id FROM fresh
       ORDER BY canteen_id COLLATE "C", name_key COLLATE "C"
       ON CONFLICT DO NOTHING
       RETURNING canteen_id, name_key, name, dish_id),
     created AS (
       INSERT INTO dishes (dish_id, canteen_id, name) OVERRIDING SYSTEM VALUE SELECT dish_id, canteen_id, name FROM named)
     SELECT canteen_id, name_key, dish_id FROM named
     UNION ALL
     SELECT known.canteen_id, known.name_key, known.dish_id FROM dish_names known JOIN given USING (canteen_id, name_key)`,
    [
      names.map((n) => n.canteenId),
      names.map((n) => n.nameKey),
      names.map((n) => n.searchKey),
      names.map((n) => n.name),
    ],
  );
  const found = new Map(rows.map((row) => [nameIdOf(row.canteen_id, row.name_key), Number(row.dish_id)]));
  // A name another writer committed while this statement waited for it is not in the statement's snapshot.
  const missing = names.filter((name) => !found.has(nameIdOf(name.canteenId, name.nameKey)));
  for (const [id, dishId] of await lookUp(client, missing)) found.set(id, dishId);
  return found;
}

async function lookUp(client: PoolClient, names: readonly DishName[]): Promise<Map<string, DishId>> {
  if (names.length === 0) return new Map();
  const { rows } = await client.query<{ canteen_id: string; name_key: string; dish_id: string }>(
    `SELECT canteen_id, name_key, dish_id FROM dish_names
     WHERE (canteen_id, name_key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [names.map((n) => n.canteenId), names.map((n) => n.nameKey)],
  );
  const found = new Map(rows.map((row) => [nameIdOf(row.canteen_id, row.name_key), Number(row.dish_id)]));
  const lost = names.find((name) => !found.has(nameIdOf(name.canteenId, name.nameKey)));
  // Names are never deleted; a name without a row means the schema was changed under the adapter.
  if (lost !== undefined) throw new Error(`the dish name "${lost.nameKey}" of canteen ${lost.canteenId} has no row`);
  return found;
}

/** Locks the dish rows in id order; answers the ids that exist. */
export async function lockDishes(client: PoolClient, dishIds: readonly DishId[]): Promise<Set<DishId>> {
  if (dishIds.length === 0) return new Set();
  const { rows } = await client.query<{ dish_id: string }>(
    'SELECT dish_id FROM dishes WHERE dish_id = ANY ($1::bigint[]) ORDER BY dish_id FOR NO KEY UPDATE',
    [dishIds],
  );
  return new Set(rows.map((row) => Number(row.dish_id)));
}

/** Adds each dish's delta to its histogram, one statement for all (the rows are locked already). */
async function applyDeltas(client: PoolClient, deltas: ReadonlyMap<DishId, readonly number[]>): Promise<void> {
  const changed = [...deltas].filter(([, delta]) => delta.some((count) => count !== 0));
  if (changed.length === 0) return;
  const column = (index: number) => changed.map(([, delta]) => delta[index]!);
  await client.query(
    `UPDATE dishes SET rated_1 = rated_1 + d.d1, rated_2 = rated_2 + d.d2, rated_3 = rated_3 + d.d3,
       rated_4 = rated_4 + d.d4, rated_5 = rated_5 + d.d5
     FROM unnest($1::bigint[], $2::integer[], $3::integer[], $4::integer[], $5::integer[], $6::integer[])
       AS d (dish_id, d1, d2, d3, d4, d5)
     WHERE dishes.dish_id = d.dish_id`,
    [changed.map(([dishId]) => dishId), column(0), column(1), column(2), column(3), column(4)],
  );
}
