import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signHmacToken } from '@canteen-meals/adapters-http';
import { openSqliteDatabase, SqliteMealCatalog } from '@canteen-meals/adapters-sqlite';
import BetterSqlite3 from 'better-sqlite3';
import { MealMother } from '@canteen-meals/repository-contract';
import { afterAll, describe, expect, it } from 'vitest';
import { runToExit, startServer, type ServerProcess } from './support/server-process.js';

const backupScript = fileURLToPath(new URL('../dist/cli/backup-database.js', import.meta.url));
const secret = 'backup-test-secret-of-at-least-32-bytes!';
const folder = mkdtempSync(join(tmpdir(), 'meals-backup-'));
const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop('SIGKILL')));
  rmSync(folder, { recursive: true, force: true });
});

const mealIds = [1, 2, 3, 4];
const seededRatings = 20_000;

/** A database with a few thousand pages of ratings, so that the copy has something to do while writes go on. */
async function seedDatabase(path: string): Promise<void> {
  const db = openSqliteDatabase(path);
  await new SqliteMealCatalog(db).upsertMany(mealIds.map((id) => MealMother.servedToday(new Date(), { id })));
  const insert = db.prepare('INSERT INTO ratings (meal_id, user_id, rating) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < seededRatings; i += 1) insert.run(mealIds[i % 4]!, `seed-user-${i}`, (i % 5) + 1);
    db.exec(`UPDATE meals SET
      rated_1 = (SELECT count(*) FROM ratings r WHERE r.meal_id = meals.meal_id AND rating = 1),
      rated_2 = (SELECT count(*) FROM ratings r WHERE r.meal_id = meals.meal_id AND rating = 2),
      rated_3 = (SELECT count(*) FROM ratings r WHERE r.meal_id = meals.meal_id AND rating = 3),
      rated_4 = (SELECT count(*) FROM ratings r WHERE r.meal_id = meals.meal_id AND rating = 4),
      rated_5 = (SELECT count(*) FROM ratings r WHERE r.meal_id = meals.meal_id AND rating = 5)`);
  })();
  db.close();
}

/** Rates with a new user on every request, so every success adds exactly one rating row. */
function startLoad(server: ServerProcess, workers = 4) {
  const state = { started: 0, completed: 0, failures: [] as string[], stop: false };
  const worker = async () => {
    while (!state.stop) {
      const i = state.started++;
      const response = await fetch(`${server.url}/api/v1/rate-meal`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${signHmacToken(secret, { sub: `load-user-${i}` })}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ meal_id: mealIds[i % 4], rating: (i % 5) + 1 }),
      });
      await response.arrayBuffer();
      if (response.status === 200) state.completed += 1;
      else state.failures.push(`request ${i}: ${response.status}`);
    }
  };
  const done = Promise.all(Array.from({ length: workers }, worker));
  return { state, stop: async () => ((state.stop = true), await done) };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

function runBackup(databaseUrl: string, file: string): Promise<{ code: number | null; output: string }> {
  return runToExit(backupScript, [file], { DATABASE_URL: databaseUrl });
}

interface MealCheck {
  meal_id: number;
  histogram: string;
  counted: string;
}

/** Each meal's stored histogram beside the histogram recounted from its rating rows. */
function histogramsAndRecounts(db: BetterSqlite3.Database): MealCheck[] {
  return db
    .prepare<[], MealCheck>(
      `SELECT m.meal_id,
         m.rated_1 || ',' || m.rated_2 || ',' || m.rated_3 || ',' || m.rated_4 || ',' || m.rated_5 AS histogram,
         (SELECT group_concat(n) FROM (SELECT (SELECT count(*) FROM ratings r WHERE r.meal_id = m.meal_id AND r.rating = v) AS n
            FROM (SELECT 1 AS v UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5) ORDER BY v)) AS counted
       FROM meals m ORDER BY m.meal_id`,
    )
    .all();
}

const countRatings = (db: BetterSqlite3.Database) =>
  (db.prepare('SELECT count(*) AS n FROM ratings').get() as { n: number }).n;

describe('pnpm db:backup', () => {
  it('takes a consistent copy while the server writes, and the copy restores', async () => {
    const source = join(folder, 'meals.db');
    const backupFile = join(folder, 'backup.db');
    await seedDatabase(source);
    const env = { NODE_ENV: 'production', JWT_SECRET: secret, DATABASE_URL: `sqlite:${source}` };
    const server = await startServer(env);
    running.push(server);

    const load = startLoad(server);
    await until(() => load.state.completed >= 100 || load.state.failures.length > 0);
    const committedBefore = load.state.completed;
    const backup = await runBackup(`sqlite:${source}`, backupFile);
    const startedBeforeEnd = load.state.started;
    // Writes go on after the copy, so the source moves past it.
    await until(() => load.state.completed >= startedBeforeEnd + 100 || load.state.failures.length > 0);
    await load.stop();
    expect(load.state.failures).toEqual([]);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/integrity ok/);
    expect(await server.stop('SIGTERM')).toBe(0);

    const copy = new BetterSqlite3(backupFile, { readonly: true, fileMustExist: true });
    const inBackup = countRatings(copy);
    let mealOneInBackup = 0;
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
      // One consistent point: every write acknowledged before the backup started is in it, none started after it.
      expect(inBackup).toBeGreaterThanOrEqual(seededRatings + committedBefore);
      expect(inBackup).toBeLessThanOrEqual(seededRatings + startedBeforeEnd);
      // ...and no rating is in it without its histogram update, or the other way round.
      const meals = histogramsAndRecounts(copy);
      expect(meals).toHaveLength(mealIds.length);
      for (const meal of meals) expect(meal.histogram).toBe(meal.counted);
      mealOneInBackup = meals[0]!.histogram.split(',').reduce((sum, n) => sum + Number(n), 0);
    } finally {
      copy.close();
    }

    const original = new BetterSqlite3(source, { readonly: true });
    try {
      expect(countRatings(original)).toBe(seededRatings + load.state.completed);
      expect(countRatings(original)).toBeGreaterThan(inBackup);
    } finally {
      original.close();
    }

    // The documented restore: server stopped, copy the file in place, remove stale -wal/-shm, start.
    copyFileSync(backupFile, source);
    rmSync(`${source}-wal`, { force: true });
    rmSync(`${source}-shm`, { force: true });
    const restored = await startServer(env);
    running.push(restored);
    expect((await fetch(`${restored.url}/readyz`)).status).toBe(200);
    const response = await fetch(`${restored.url}/api/v1/rate-meal`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${signHmacToken(secret, { sub: 'after-restore' })}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ meal_id: 1, rating: 5 }),
    });
    const body = (await response.json()) as { data: { rating_count: number } };
    expect(body.data.rating_count).toBe(mealOneInBackup + 1);
    expect(await restored.stop('SIGTERM')).toBe(0);
  });

  it('refuses to overwrite a file and to back up a database that does not exist', async () => {
    const existing = join(folder, 'existing.db');
    copyFileSync(backupScript, existing);
    const overwrite = await runBackup(`sqlite:${join(folder, 'meals.db')}`, existing);
    expect(overwrite.code).toBe(1);
    expect(overwrite.output).toContain('already exists');
    const missing = await runBackup(`sqlite:${join(folder, 'nothing-here.db')}`, join(folder, 'never.db'));
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('does not exist');
    expect(existsSync(join(folder, 'never.db'))).toBe(false);
  });
});
