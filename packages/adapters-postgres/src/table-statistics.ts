import type { Pool } from 'pg';

/** The tables whose statistics the planner relies on for menus, dishes, ratings and imports. */
export const analysedTables = ['meals', 'dishes', 'dish_names', 'meal_sources', 'ratings', 'markings'] as const;

/** A write that added at least this many meals analyses the tables right after its commit. */
export const analyzeAfterAddedMeals = 200;

/**
 * Analyses those of the tables that exist and hold rows. An empty table is left alone: PostgreSQL plans a table that
 * was never analysed as at least 10 pages, but one analysed while empty as empty, and a plan kept from then (a
 * session's prepared statement) would scan the table once it has grown.
 */
export async function analyzeTables(client: Pick<Pool, 'query'>): Promise<void> {
  const present = await client.query<{ name: string }>(
    'SELECT name FROM unnest($1::text[]) AS t (name) WHERE to_regclass(name) IS NOT NULL',
    [analysedTables],
  );
  const names = present.rows.map((row) => row.name);
  if (names.length === 0) return;
  const held = await client.query<{ name: string }>(
    names
      .map((name, index) => `SELECT $${index + 1}::text AS name WHERE EXISTS (SELECT FROM ${name})`)
      .join(' UNION ALL '),
    names,
  );
  if (held.rows.length > 0) await client.query(`ANALYZE ${held.rows.map((row) => row.name).join(', ')}`);
}

/**
 * Keeps the planner's statistics current after large imports: autovacuum analyses a table only once a tenth of it
 * changed and up to a minute later (its naptime), and until then a young database is planned on old figures.
 */
export class TableStatistics {
  constructor(private readonly pool: Pick<Pool, 'query'>) {}

  /** After a committed write that added `addedMeals` meals. Never fails: statistics only make plans better. */
  async afterAdding(addedMeals: number): Promise<void> {
    if (addedMeals < analyzeAfterAddedMeals) return;
    try {
      await analyzeTables(this.pool);
    } catch {
      // The write is committed and answered as such; autovacuum analyses the tables later anyway.
    }
  }
}
