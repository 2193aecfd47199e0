import { readFileSync } from 'node:fs';
import { menuFromUpsertDocument } from '@canteen-meals/adapters-http';
import type { UseCases } from '@canteen-meals/domain';
import { valueOrThrow } from '../refused.js';

export type JsonMenu = ReturnType<typeof menuFromUpsertDocument>;

/** Reads and checks the admin upsert body (`PUT /api/v1/admin/meals`) before any database is opened. */
export function prepareJsonMeals(path: string): JsonMenu {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read ${path} as JSON: ${(error as Error).message}`);
  }
  return menuFromUpsertDocument(document);
}

/** Prepared meals, upserted in one transaction, after the days the file says are closed (as the route does). */
export async function importJsonMeals(
  path: string,
  { meals, closedDays }: JsonMenu,
  { upsertMeals, setDayClosed }: Pick<UseCases, 'upsertMeals' | 'setDayClosed'>,
): Promise<string[]> {
  for (const { canteenId, date } of closedDays)
    valueOrThrow(await setDayClosed.execute({ canteenId, date, closed: true }));
  const { upserted } = valueOrThrow(await upsertMeals.execute(meals));
  const closed = closedDays.length === 0 ? '' : `, ${closedDays.length} closed days`;
  return [`meals:import: upserted ${upserted} meals from ${path}${closed}`];
}
