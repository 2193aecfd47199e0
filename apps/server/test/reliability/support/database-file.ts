import Database from 'better-sqlite3';

export type StoredRating = 1 | 2 | 3 | 4 | 5;

export interface DatabaseSnapshot {
  /** `PRAGMA integrity_check`: 'ok' or the problems found. */
  readonly integrity: string;
  /** `mealId/userId` -> rating, the whole ratings table. */
  readonly ratings: ReadonlyMap<string, StoredRating>;
  /** The histogram each meals row carries, and the one counted again from the ratings table. */
  readonly histograms: ReadonlyMap<number, { readonly stored: number[]; readonly recounted: number[] }>;
  /** (user, meal) pairs with more than one rating: always 0 unless the primary key is gone. */
  readonly duplicateRatings: number;
}

export const ratingKey = (mealId: number, userId: string) => `${mealId}/${userId}`;

/**
 * Reads a database file without writing to it (no migration, no checkpoint), as it was left by a server that
 * may have been killed: SQLite replays the committed part of the WAL for this reader.
 */
export function inspectDatabaseFile(path: string): DatabaseSnapshot {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[])
      .map((row) => row.integrity_check)
      .join('; ');
    const ratings = new Map(
      db
        .prepare<[], { meal_id: number; user_id: string; rating: StoredRating }>(
          'SELECT meal_id, user_id, rating FROM ratings',
        )
        .all()
        .map((row) => [ratingKey(row.meal_id, row.user_id), row.rating] as const),
    );
    const stored = db
      .prepare<[], { meal_id: number; h1: number; h2: number; h3: number; h4: number; h5: number }>(
        'SELECT meal_id, rated_1 AS h1, rated_2 AS h2, rated_3 AS h3, rated_4 AS h4, rated_5 AS h5 FROM meals',
      )
      .all();
    const recount = db.prepare<[number], { rating: number; n: number }>(
      'SELECT rating, count(*) AS n FROM ratings WHERE meal_id = ? GROUP BY rating',
    );
    const histograms = new Map<number, { stored: number[]; recounted: number[] }>(
      stored.map((row) => {
        const recounted = [0, 0, 0, 0, 0];
        for (const { rating, n } of recount.all(row.meal_id)) recounted[rating - 1] = n;
        return [row.meal_id, { stored: [row.h1, row.h2, row.h3, row.h4, row.h5], recounted }];
      }),
    );
    const duplicateRatings = db
      .prepare<[], { n: number }>(
        'SELECT count(*) AS n FROM (SELECT meal_id, user_id FROM ratings GROUP BY meal_id, user_id HAVING count(*) > 1)',
      )
      .get()!.n;
    return { integrity, ratings, histograms, duplicateRatings };
  } finally {
    db.close();
  }
}
