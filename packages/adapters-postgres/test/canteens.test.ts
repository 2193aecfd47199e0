import { openPostgres, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import { mealSourceKey, noMealDetails, planMenuImport, type Canteen, type MenuCandidate } from '@canteen-meals/domain';
import { accepted, probeThrough, readAt } from '@canteen-meals/repository-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from './support/test-database.js';

const databaseUrl = databasePerFile();
let database: PostgresDatabase;
beforeAll(async () => {
  database = await openPostgres(databaseUrl(), { poolSize: 2, defaultTimeZone: 'Europe/Berlin' });
});
afterAll(async () => {
  await database?.close();
});

/** The imports run the week before the meals are served. */
const importedAt = new Date('2025-03-03T08:00:00Z');
const nord: Canteen = {
  id: 'mensa-nord',
  name: 'Mensa Nord',
  timeZone: 'Europe/Berlin',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
  noteLabels: {},
  placeholderNames: [],
};

describe('PostgreSQL canteens', () => {
  it.each<[string, Canteen['coordinates']]>([
    ['the corners of the globe', { lat: -90, lng: 180 }],
    ['the other corners', { lat: 90, lng: -180 }],
    ['coordinates with every digit of a double', { lat: 50.779640000000001, lng: 6.078380000000012 }],
    ['the smallest subnormal', { lat: Number.MIN_VALUE, lng: -Number.MIN_VALUE }],
  ])('round-trips %s exactly', async (_, coordinates) => {
    const canteen: Canteen = {
      ...nord,
      id: 'edge',
      name: 'Mensa 🍲 "Süd"',
      city: 'Köln',
      address: 'a\\b',
      coordinates,
    };
    await database.adapters.canteens.save(canteen);
    expect(await database.adapters.canteens.find('edge')).toEqual({ ...canteen, openmensaId: expect.any(Number) });
  });

  it('imports meals into their canteen at their position, and updates both on a re-import', async () => {
    const { canteens, mealSources, queries } = database.adapters;
    await canteens.save(nord);
    const candidate = (name: string, position: number): MenuCandidate => {
      const meal = {
        ...noMealDetails,
        name,
        servedAt: new Date('2025-03-10T10:30:00Z'),
        rateable: true,
        canteenId: nord.id,
        position,
      };
      return { key: mealSourceKey('nord-feed', '2025-03-10', { category: '', name }), servedOn: '2025-03-10', meal };
    };
    const scope = { source: 'nord-feed', days: ['2025-03-10'], servedIn: [] };
    const first = accepted(
      await mealSources.importMenu(scope, (snapshot) =>
        planMenuImport([candidate('Soup', 0), candidate('Stew', 1)], snapshot, importedAt),
      ),
    );
    const [soup, stew] = first.added.map(({ meal }) => meal.id) as [number, number];
    const probe = probeThrough(() => queries);
    expect(await probe.meal(stew)).toMatchObject({ name: 'Stew', canteenId: nord.id, position: 1 });

    const second = accepted(
      await mealSources.importMenu(scope, (snapshot) =>
        planMenuImport([candidate('Stew', 0), candidate('Soup', 1)], snapshot, importedAt),
      ),
    );
    expect(second.updated.map((meal) => meal.id).sort((a, b) => a - b)).toEqual([soup, stew].sort((a, b) => a - b));
    const window = {
      canteenId: nord.id,
      from: new Date('2025-03-10T00:00:00Z'),
      until: new Date('2025-03-11T00:00:00Z'),
    };
    expect(
      (await queries.viewsServedIn('alice', [window], readAt)).map(({ meal }) => [meal.name, meal.position]),
    ).toEqual([
      ['Stew', 0],
      ['Soup', 1],
    ]);
    // Nothing changed: a third import finds the meals as they are, canteen and position included.
    const third = accepted(
      await mealSources.importMenu(scope, (snapshot) =>
        planMenuImport([candidate('Stew', 0), candidate('Soup', 1)], snapshot, importedAt),
      ),
    );
    expect(third.updated).toEqual([]);
  });

  it('numbers canteens created at the same time on two connections each with a number of its own', async () => {
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        database.adapters.canteens.save({ ...nord, id: `at-once-${index}`, name: `At once ${index}` }),
      ),
    );
    const numbers = created.map((saved) => (saved.ok ? saved.value.canteen.openmensaId : 0));
    expect(numbers.every((number) => number > 0)).toBe(true);
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});
