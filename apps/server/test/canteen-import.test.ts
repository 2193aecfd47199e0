import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSqliteAdapters, openSqliteDatabase } from '@canteen-meals/adapters-sqlite';
import { GetMeals, systemClock, type Canteen } from '@canteen-meals/domain';
import { accepted } from '@canteen-meals/repository-contract';
import { afterAll, describe, expect, it } from 'vitest';
import { syncRunTimeoutMs } from './support/server-process.js';

// Two real OpenMensa feeds (cvzi/mensahd, see packages/adapters-openmensa/test/fixtures/README.md), imported by the
// real CLI process into two canteens of one SQLite file.
const importCli = fileURLToPath(new URL('../dist/cli/import-meals.js', import.meta.url));
const fixtures = fileURLToPath(new URL('../../../packages/adapters-openmensa/test/fixtures/', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'meals-canteen-import-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const heidelberg: Canteen = {
  id: 'triplex',
  name: 'Triplex-Mensa',
  timeZone: 'Europe/Berlin',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
  noteLabels: {},
  placeholderNames: [],
};
const stuttgart: Canteen = {
  id: 'central',
  name: 'Mensa Central',
  timeZone: 'Europe/Berlin',
  city: 'Stuttgart',
  address: null,
  coordinates: null,
  feeds: [],
};

describe('pnpm meals:import <feed.xml> --canteen <id>', () => {
  const path = join(folder, 'two-canteens.db');
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [importCli, ...args], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${path}`, TZ_NAME: 'Europe/Berlin' },
      encoding: 'utf8',
      timeout: syncRunTimeoutMs,
    });
  const withAdapters = async <T>(
    use: (adapters: ReturnType<typeof createSqliteAdapters>) => Promise<T>,
  ): Promise<T> => {
    const db = openSqliteDatabase(path, { defaultTimeZone: 'Europe/Berlin' });
    try {
      return await use(createSqliteAdapters(db));
    } finally {
      db.close();
    }
  };
  const menuOf = (canteenId: string, from: string, to: string) =>
    withAdapters(async (adapters) => {
      const result = await new GetMeals({ ...adapters, clock: systemClock }).execute({
        userId: 'reader',
        canteenId,
        from,
        to,
      });
      return accepted(result).meals.map(({ meal }) => meal);
    });

  it('keeps two real feeds apart in their canteens, and fills what a canteen lacks from the feed metadata', async () => {
    await withAdapters(async ({ canteens }) => {
      await canteens.save(heidelberg);
      await canteens.save(stuttgart);
    });

    const first = run(join(fixtures, 'heidelberg-triplex-feed.xml'), '--canteen', 'triplex');
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('added 31, updated 0, unchanged 0');
    const second = run(join(fixtures, 'stuttgart-central-feed.xml'), '--canteen', 'central');
    expect(second.stderr).toBe('');
    expect(second.stdout).toContain('added 20, updated 0, unchanged 0');

    const triplex = await menuOf('triplex', '2026-08-01', '2026-08-14');
    const central = await menuOf('central', '2026-08-01', '2026-08-14');
    expect(triplex).toHaveLength(31);
    expect(central).toHaveLength(20);
    expect(new Set(triplex.map((meal) => meal.canteenId))).toEqual(new Set(['triplex']));
    expect(new Set(central.map((meal) => meal.canteenId))).toEqual(new Set(['central']));
    expect(triplex.filter((meal) => central.some((other) => other.id === meal.id))).toEqual([]);
    // Menu order: by day, then the feed's order (categories as the feed lists them).
    expect(triplex[0]).toMatchObject({ name: 'Tagessuppe', position: 0 });
    expect(await menuOf('default', '2026-08-01', '2026-08-14')).toEqual([]);

    // A dish served on several days carries its history: every Tagessuppe of Triplex is one dish.
    const soups = triplex.filter((meal) => meal.name === 'Tagessuppe');
    expect(soups.length).toBeGreaterThan(1);
    const views = await withAdapters(({ queries }) =>
      queries.viewsByIds(
        'reader',
        soups.map((meal) => meal.id),
        new Date('2026-09-01T00:00:00Z'),
      ),
    );
    expect(new Set(views.map((view) => view.dish.id)).size).toBe(1);
    expect(views[0]!.dish).toMatchObject({ name: 'Tagessuppe', timesServed: soups.length, canteenId: 'triplex' });

    // Re-importing one feed changes nothing in either canteen.
    expect(run(join(fixtures, 'stuttgart-central-feed.xml'), '--canteen', 'central').stdout).toContain(
      'added 0, updated 0, unchanged 20',
    );
    expect(await menuOf('triplex', '2026-08-01', '2026-08-14')).toEqual(triplex);

    // The metadata feed fills the city, address and coordinates Triplex lacked; Central's city is kept.
    const metadata = run(join(fixtures, 'heidelberg-triplex-meta.xml'), '--canteen', 'triplex');
    expect(metadata.stderr).toBe('');
    expect(metadata.stdout).toContain('canteen triplex: filled city, address, coordinates from the feed');
    run(join(fixtures, 'stuttgart-central-meta.xml'), '--canteen', 'central');
    await withAdapters(async ({ canteens }) => {
      expect(await canteens.find('triplex')).toEqual({
        ...heidelberg,
        openmensaId: expect.any(Number),
        city: 'Heidelberg',
        address: 'Grabengasse 14, 69117 Heidelberg',
        coordinates: { lat: 49.410596, lng: 8.705868 },
      });
      expect((await canteens.find('central'))?.city).toBe('Stuttgart');
    });
  });

  it('refuses a canteen that does not exist, importing nothing', async () => {
    const refused = run(join(fixtures, 'stuttgart-central-feed.xml'), '--canteen', 'nowhere');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('The canteen does not exist.');
  });
});
