import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createSqliteAdapters,
  openSqliteDatabase,
  GroupCommit,
  SqliteRatingRepository,
  type SqliteDatabase,
} from '@canteen-meals/adapters-sqlite';
import { decideRatingChange, histogramOf, type RatingValue } from '@canteen-meals/domain';
import { probeThrough, ratingOpenAt, sampleMeal } from '@canteen-meals/repository-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const mealIds = [1, 2, 3];
const changesPerProcess = 500;

/** The histogram counted again from the ratings table, next to the one the meals row carries. */
function storedAndRecounted(db: SqliteDatabase, mealId: number) {
  const row = db
    .prepare<[number], Record<string, number>>(
      'SELECT rated_1, rated_2, rated_3, rated_4, rated_5 FROM meals WHERE meal_id = ?',
    )
    .get(mealId)!;
  const stored = [row.rated_1, row.rated_2, row.rated_3, row.rated_4, row.rated_5];
  const values = db
    .prepare<[number], { rating: RatingValue }>('SELECT rating FROM ratings WHERE meal_id = ?')
    .all(mealId)
    .map((row) => row.rating);
  return { stored, recounted: [...histogramOf(values)] };
}

/** Every dish's stored histogram, and the one counted again from the ratings of all its servings. */
function dishesStoredAndRecounted(db: SqliteDatabase) {
  const stored = db
    .prepare('SELECT dish_id, rated_1, rated_2, rated_3, rated_4, rated_5 FROM dishes ORDER BY dish_id')
    .all();
  const recounted = db
    .prepare(`SELECT dishes.dish_id, count(rating = 1 OR NULL) AS rated_1, count(rating = 2 OR NULL) AS rated_2,
        count(rating = 3 OR NULL) AS rated_3, count(rating = 4 OR NULL) AS rated_4, count(rating = 5 OR NULL) AS rated_5
      FROM dishes LEFT JOIN meals ON meals.dish_id = dishes.dish_id LEFT JOIN ratings ON ratings.meal_id = meals.meal_id
      GROUP BY dishes.dish_id ORDER BY dishes.dish_id`)
    .all();
  return { stored, recounted };
}

function ratingsTable(db: SqliteDatabase): Record<string, RatingValue> {
  const rows = db
    .prepare<[], { meal_id: number; user_id: string; rating: RatingValue }>(
      'SELECT meal_id, user_id, rating FROM ratings',
    )
    .all();
  return Object.fromEntries(rows.map((row) => [`${row.meal_id}/${row.user_id}`, row.rating]));
}

interface RaterReport {
  readonly finalRatings: Record<string, RatingValue | null>;
  readonly foreignChangesSeen: number;
}

/** A worker process that opens the file, says ready, waits for `go`, rates, and reports. */
function startRater(path: string, prefix: string, seed: number, env: NodeJS.ProcessEnv) {
  const script = fileURLToPath(new URL('./fixtures/concurrent-rater.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, path, prefix, String(changesPerProcess), String(seed)], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`rater ${prefix} exited ${code}: ${stderr}`)),
    );
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => stdout.startsWith('ready\n') && resolve());
    exited.then(() => reject(new Error(`rater ${prefix} ended before it was ready`)), reject);
  });
  return {
    ready,
    go: () => child.stdin.end('go\n'),
    report: () => exited.then(() => JSON.parse(stdout.slice('ready\n'.length)) as RaterReport),
  };
}

describe('SqliteRatingRepository under concurrent writers on one file', () => {
  let folder: string;
  let path: string;
  let setup: SqliteDatabase;

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'meals-concurrent-'));
    path = join(folder, 'meals.db');
    setup = openSqliteDatabase(path);
    // Meals 1 and 2 are servings of one dish, whose histogram both connections (or processes) then move.
    await createSqliteAdapters(setup).meals.upsertMany(
      mealIds.map((id) => sampleMeal(id, { name: id === 3 ? 'Stew' : 'Soup' })),
    );
  });
  afterEach(() => {
    setup.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('two connections in one process, changes interleaved: each meal and dish histogram equals its recount', async () => {
    const other = openSqliteDatabase(path);
    try {
      const connections = [setup, other].map((db) => new SqliteRatingRepository(db, new GroupCommit(db)));
      const expected: Record<string, RatingValue | null> = {};
      const values = [1, 2, 3, 4, 5, null] as const;
      const pending: Promise<unknown>[] = [];
      for (let step = 0; step < 300; step++) {
        const user = (step * 7) % 13;
        const userId = `user-${user}`;
        const mealId = mealIds[step % mealIds.length]!;
        const requested = values[(step * 11) % values.length]!;
        // Both connections write to every meal, with the changes in flight together, as concurrent requests would
        // be. A user stays on one connection, whose changes commit in the order asked, so the last value is known.
        pending.push(
          connections[user % 2]!.change(userId, mealId, (snapshot) =>
            decideRatingChange(snapshot, requested, ratingOpenAt),
          ),
        );
        expected[`${mealId}/${userId}`] = requested;
      }
      await Promise.all(pending);

      for (const mealId of mealIds) {
        const { stored, recounted } = storedAndRecounted(setup, mealId);
        expect(stored).toEqual(recounted);
        expect([...(await probeThrough(() => createSqliteAdapters(other).queries).histogram(mealId))]).toEqual(stored);
      }
      const dishes = dishesStoredAndRecounted(setup);
      expect(dishes.stored).toHaveLength(2);
      expect(dishes.stored).toEqual(dishes.recounted);
      expect(ratingsTable(setup)).toEqual(
        Object.fromEntries(Object.entries(expected).filter(([, value]) => value !== null)),
      );
    } finally {
      other.close();
    }
  });

  it('two processes rating at once lose no update: each meal and dish histogram equals its recount', async () => {
    const compiled = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    expect(existsSync(compiled), 'the worker processes load the compiled package: run `tsc -b` first').toBe(true);
    const env = { ...process.env, RATING_NOW: ratingOpenAt.toISOString(), MEAL_IDS: JSON.stringify(mealIds) };
    const workers = [startRater(path, 'left', 1, env), startRater(path, 'right', 2, env)];

    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.go();
    const reports = await Promise.all(workers.map((worker) => worker.report()));

    // The two processes really did interleave: each change reads a histogram the other may just have moved.
    expect(reports.reduce((total, report) => total + report.foreignChangesSeen, 0)).toBeGreaterThan(0);
    // Disjoint users: each process knows its own final ratings exactly; the histograms are shared.
    const finalRatings = Object.assign(
      {},
      ...reports.map((report) => report.finalRatings),
    ) as RaterReport['finalRatings'];
    expect(ratingsTable(setup)).toEqual(
      Object.fromEntries(Object.entries(finalRatings).filter(([, value]) => value !== null)),
    );
    for (const mealId of mealIds) {
      const { stored, recounted } = storedAndRecounted(setup, mealId);
      expect(stored).toEqual(recounted);
    }
    const dishes = dishesStoredAndRecounted(setup);
    expect(dishes.stored).toEqual(dishes.recounted);
    // Two processes on a loaded machine: the bound is generous, the workers' own bound (60 s of waiting for each other)
    // is the one that ends a run that proves nothing.
  }, 90_000);
});
