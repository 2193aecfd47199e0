import { createSqliteAdapters } from '@canteen-meals/adapters-sqlite';
import { probeThrough } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';
import { legacyFilePerTest } from './support/legacy-file.js';

const noon = 1741608000000; // 2025-03-10T12:00:00Z

describe('migration 012 (labels) on a database that has the migrations before it', () => {
  const { open } = legacyFilePerTest(11, (old) => {
    old.exec(`
      INSERT INTO dishes (dish_id, canteen_id, name) VALUES (1, 'default', 'Currywurst');
      INSERT INTO dish_names (canteen_id, name_key, search_key, name, dish_id) VALUES ('default', 'currywurst', 'currywurst', 'Currywurst', 1);
      INSERT INTO meals (meal_id, name, served_at, rateable, canteen_id, position, dish_id, notes)
        VALUES (1, 'Currywurst', ${noon}, 1, 'default', 0, 1, '["Schwein"]');`);
  });

  it('keeps every meal, with no label until it is written again, and every canteen, with no spelling of its own', async () => {
    const db = open();
    const adapters = createSqliteAdapters(db);
    expect(db.prepare('SELECT version, name FROM schema_migrations WHERE version = 12').get()).toEqual({
      version: 12,
      name: 'labels',
    });
    const meal = await probeThrough(() => adapters.queries).meal(1);
    expect(meal).toMatchObject({ name: 'Currywurst', notes: ['Schwein'], labels: [] });
    expect(await adapters.canteens.find('default')).toMatchObject({ noteLabels: {}, placeholderNames: [] });
    await adapters.preferences.saveFilter('alice', { without: ['pork'], only: [] });
    await adapters.preferences.avoid('alice', 1, new Date(noon));
    expect(await adapters.preferences.preferencesOf('alice')).toEqual({
      filter: { without: ['pork'], only: [] },
      aversions: [{ dishId: 1, since: new Date(noon) }],
    });
  });

  it('refuses labels that are not a JSON array, and spellings that are not a JSON object', () => {
    const db = open();
    expect(() => db.prepare(`UPDATE meals SET labels = '"pork"' WHERE meal_id = 1`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`UPDATE canteens SET note_labels = '[]' WHERE canteen_id = 'default'`).run()).toThrow(
      /CHECK/,
    );
  });
});
