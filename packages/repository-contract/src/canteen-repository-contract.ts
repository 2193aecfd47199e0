import { defaultCanteenId, type Canteen } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { freshFixturePerTest, type CreateRepositoryFixture, type RepositoryFixture } from './repository-fixture.js';
import { sampleMeal, readAt } from './sample-meals.js';

const academica: Canteen = {
  id: 'mensa-academica',
  name: 'Mensa Academica',
  timeZone: 'Europe/Berlin',
  city: 'Aachen',
  address: 'Pontwall 3, 52062 Aachen',
  coordinates: { lat: 50.77964, lng: 6.07838 },
  feeds: [],
};

const bare: Canteen = { id: 'bistro-7', name: 'Bistro 7', timeZone: 'America/New_York', city: null, address: null, coordinates: null, feeds: [] };

/** What every CanteenRepository adapter must do, whatever stores the canteens. */
export function describeCanteenRepositoryContract(adapterName: string, createFixture: CreateRepositoryFixture): void {
  describe(`CanteenRepository contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);

    it('holds the default canteen from the start, with a time zone', async () => {
      const { canteens } = store();
      const fallback = await canteens.find(defaultCanteenId);
      expect(fallback).toMatchObject({ id: defaultCanteenId, city: null, address: null, coordinates: null });
      expect(fallback?.name).not.toBe('');
      expect(fallback?.timeZone).not.toBe('');
      expect((await canteens.list()).map((canteen) => canteen.id)).toEqual([defaultCanteenId]);
    });

    it('creates a canteen with every field, and null ones, and reads it back exactly', async () => {
      const { canteens } = store();
      expect(await canteens.save(academica)).toEqual({ created: true });
      expect(await canteens.save(bare)).toEqual({ created: true });
      expect(await canteens.find(academica.id)).toEqual(academica);
      expect(await canteens.find(bare.id)).toEqual(bare);
      expect(await canteens.find('nowhere')).toBeUndefined();
    });

    it('replaces every field of an existing canteen, and answers that it did not create one', async () => {
      const { canteens } = store();
      await canteens.save(academica);
      const moved = { ...academica, name: 'Mensa Academica (Umbau)', timeZone: 'Europe/Vienna', city: null, coordinates: null, feeds: [] };
      expect(await canteens.save(moved)).toEqual({ created: false });
      expect(await canteens.find(academica.id)).toEqual(moved);
    });

    it('keeps a canteen\'s feeds in their order, and replaces them with the canteen', async () => {
      const { canteens } = store();
      const feeds = [
        { name: 'today', url: 'https://mensa.example/today.xml', schedule: '0 8-15 * * 1-5' },
        { name: 'full', url: 'http://mensa.example:8080/full.xml?week=1', schedule: '0 6 * * *' },
      ];
      await canteens.save({ ...academica, feeds });
      expect((await canteens.find(academica.id))?.feeds).toEqual(feeds);
      expect((await canteens.list()).find((canteen) => canteen.id === academica.id)?.feeds).toEqual(feeds);
      await canteens.save({ ...academica, feeds: feeds.slice(1) });
      expect((await canteens.find(academica.id))?.feeds).toEqual(feeds.slice(1));
      expect((await canteens.find('default'))?.feeds).toEqual([]);
    });

    it('lists every canteen by id', async () => {
      const { canteens } = store();
      await canteens.save(academica);
      await canteens.save(bare);
      expect((await canteens.list()).map((canteen) => canteen.id)).toEqual(['bistro-7', 'default', 'mensa-academica']);
    });

    it('keeps a canteen\'s meals when the canteen is replaced', async () => {
      const { canteens, meals, queries } = store();
      await canteens.save(academica);
      await meals.upsertMany([{ ...sampleMeal(1), canteenId: academica.id }]);
      await canteens.save({ ...academica, name: 'Renamed' });
      expect((await queries.viewsByIds('alice', [1], readAt))[0]?.meal.canteenId).toBe(academica.id);
    });

    describeArchivedCanteens(store);
  });
}

const archivedAt = new Date('2026-03-02T09:15:30.123Z');

/** Archiving: the reads see active canteens only, listWithArchived sees every one, and a save restores one. */
function describeArchivedCanteens(store: () => RepositoryFixture): void {
  it('lists every canteen with archivedAt null while none is archived', async () => {
    const { canteens } = store();
    await canteens.save(academica);
    const listed = await canteens.listWithArchived();
    expect(listed.map((canteen) => [canteen.id, canteen.archivedAt])).toEqual([
      [defaultCanteenId, null],
      [academica.id, null],
    ]);
    expect(listed[1]).toEqual({ ...academica, archivedAt: null });
  });

  it('archives a canteen: not found, not listed, but listed with its archivedAt among the archived, its meals kept', async () => {
    const { canteens, meals, queries } = store();
    await canteens.save(academica);
    await canteens.save(bare);
    await meals.upsertMany([{ ...sampleMeal(1), canteenId: academica.id }]);
    expect(await canteens.archive(academica.id, archivedAt)).toEqual(archivedAt);
    expect(await canteens.find(academica.id)).toBeUndefined();
    expect((await canteens.list()).map((canteen) => canteen.id)).toEqual(['bistro-7', defaultCanteenId]);
    expect(await canteens.listWithArchived()).toEqual([
      { ...bare, archivedAt: null },
      { ...(await canteens.find(defaultCanteenId))!, archivedAt: null },
      { ...academica, archivedAt },
    ]);
    expect((await queries.viewsByIds('alice', [1], readAt))[0]?.meal.canteenId).toBe(academica.id);
  });

  it('keeps the first archivedAt when an archived canteen is archived again, and archives no unknown id', async () => {
    const { canteens } = store();
    await canteens.save(academica);
    await canteens.archive(academica.id, archivedAt);
    const later = new Date(archivedAt.getTime() + 60_000);
    expect(await canteens.archive(academica.id, later)).toEqual(archivedAt);
    expect((await canteens.listWithArchived()).find((canteen) => canteen.id === academica.id)?.archivedAt).toEqual(archivedAt);
    expect(await canteens.archive('nowhere', later)).toBeUndefined();
    expect((await canteens.listWithArchived()).map((canteen) => canteen.id)).toEqual([defaultCanteenId, academica.id]);
  });

  it('restores an archived canteen when it is saved: found and listed again with its new fields and its meals', async () => {
    const { canteens, meals, queries } = store();
    await canteens.save(academica);
    await meals.upsertMany([{ ...sampleMeal(1), canteenId: academica.id }]);
    await canteens.archive(academica.id, archivedAt);
    const renamed = { ...academica, name: 'Mensa Academica (neu)' };
    expect(await canteens.save(renamed)).toEqual({ created: false });
    expect(await canteens.find(academica.id)).toEqual(renamed);
    expect((await canteens.list()).map((canteen) => canteen.id)).toEqual([defaultCanteenId, academica.id]);
    expect((await canteens.listWithArchived()).find((canteen) => canteen.id === academica.id)?.archivedAt).toBeNull();
    expect((await queries.viewsByIds('alice', [1], readAt))[0]?.meal.canteenId).toBe(academica.id);
    // Archived again after the restore: a new instant, not the first archive's.
    const later = new Date(archivedAt.getTime() + 60_000);
    expect(await canteens.archive(academica.id, later)).toEqual(later);
  });

  it('archives the default canteen like any other', async () => {
    const { canteens } = store();
    expect(await canteens.archive(defaultCanteenId, archivedAt)).toEqual(archivedAt);
    expect(await canteens.find(defaultCanteenId)).toBeUndefined();
    expect(await canteens.list()).toEqual([]);
    expect((await canteens.listWithArchived()).map((canteen) => [canteen.id, canteen.archivedAt])).toEqual([[defaultCanteenId, archivedAt]]);
  });
}
