import { readFileSync } from 'node:fs';
import { mealsFromUpsertDocument } from '@meals/adapters-http';
import { UpsertMeals } from '@meals/domain';
import type { Persistence } from '../persistence.js';

/** The admin upsert body (`PUT /api/v1/admin/meals`), from a file, in one transaction. */
export async function importJsonMeals(path: string, persistence: Persistence): Promise<string[]> {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read ${path} as JSON: ${(error as Error).message}`);
  }
  const meals = mealsFromUpsertDocument(document);
  const { upserted } = await new UpsertMeals(persistence).execute(meals);
  return [`meals:import: upserted ${upserted} meals from ${path}`];
}
