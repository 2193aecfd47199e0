import { createSqliteAdapters, openSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { mealSourceKey, noMealDetails, planMenuImport, type MenuCandidate } from '@canteen-meals/domain';
import { MealMother } from '@canteen-meals/repository-contract';
import { afterAll, describe, expect, it } from 'vitest';

const sizes = [1, 10, 100] as const;
const start = Date.parse('2026-03-10T11:30:00Z');
const day = 24 * 60 * 60 * 1000;

// better-sqlite3's `verbose` hook sees every statement executed: what the webhook outbox adds to a menu write.
const executed: string[] = [];
const db = openSqliteDatabase(':memory:', { onStatement: (sql) => executed.push(sql) });
const adapters = createSqliteAdapters(db);
afterAll(() => db.close());

/** The statements `write` executes that touch the outbox. */
async function outboxStatementsOf(write: () => Promise<unknown>): Promise<string[]> {
  executed.length = 0;
  await write();
  return executed.filter((sql) => /webhook_outbox/.test(sql));
}

describe('recording webhook events on the request path', () => {
  it('costs an upsert of 1, 10 and 100 meals on as many days one INSERT into the outbox', async () => {
    for (const size of sizes) {
      const meals = Array.from({ length: size }, (_, index) =>
        MealMother.servedAt(new Date(start + index * day), { id: size * 1000 + index }),
      );
      const statements = await outboxStatementsOf(() => adapters.meals.upsertMany(meals));
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/^INSERT INTO webhook_outbox/);
    }
  });

  it('costs an import of 1, 10 and 100 days one INSERT into the outbox, and an unchanged re-import none', async () => {
    for (const size of sizes) {
      const source = `feed-${size}`;
      const dates = Array.from({ length: size }, (_, index) =>
        new Date(start + index * day).toISOString().slice(0, 10),
      );
      const candidates: MenuCandidate[] = dates.map((date, index) => ({
        key: mealSourceKey(source, date, { category: '', name: 'Eintopf' }),
        servedOn: date,
        meal: { ...noMealDetails, name: 'Eintopf', servedAt: new Date(start + index * day), rateable: true },
      }));
      const scope = { source, days: dates, servedIn: [] };
      const importAt = new Date(start - day);
      const imported = () =>
        adapters.mealSources.importMenu(scope, (snapshot) => planMenuImport(candidates, snapshot, importAt));
      expect(await outboxStatementsOf(imported)).toHaveLength(1);
      expect(await outboxStatementsOf(imported)).toEqual([]);
    }
  });
});
