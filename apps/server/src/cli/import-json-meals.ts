import { readFileSync } from 'node:fs';
import { mealsFromUpsertDocument } from '@canteen-meals/adapters-http';
import type { Meal, UseCases } from '@canteen-meals/domain';
import { valueOrThrow } from '../refused.js';

/** Reads and checks the admin upsert body (`PUT /api/v1/admin/meals`) before any database is opened. */
export function prepareJsonMeals(path: string): Meal[] {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read ${path} as JSON: ${(error as Error).message}`);
  }
  return mealsFromUpsertDocument(document);
}

/** Prepared meals, upserted in one transaction. */
export async function importJsonMeals(path: string, meals: Meal[], { upsertMeals }: Pick<UseCases, 'upsertMeals'>): Promise<string[]> {
  const { upserted } = valueOrThrow(await upsertMeals.execute(meals));
  return [`meals:import: upserted ${upserted} meals from ${path}`];
}
