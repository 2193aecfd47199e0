import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { mealsFromUpsertDocument } from '@meals/adapters-http';
import { UpsertMeals } from '@meals/domain';
import { loadConfig } from '../config.js';
import { openPersistence } from '../persistence.js';

/** `pnpm meals:import <file.json>`: the admin upsert body, from a file, in one transaction. */
async function importMeals(file: string | undefined): Promise<void> {
  if (file === undefined) throw new Error('usage: pnpm meals:import <meals.json>');
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read ${path} as JSON: ${(error as Error).message}`);
  }
  const meals = mealsFromUpsertDocument(document);
  const persistence = await openPersistence(loadConfig(process.env));
  try {
    const { upserted } = await new UpsertMeals(persistence).execute(meals);
    console.log(`meals:import: upserted ${upserted} meals from ${path}`);
  } finally {
    await persistence.close();
  }
}

importMeals(process.argv[2]).catch((error: unknown) => {
  console.error(`meals:import: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
