import { defaultCanteenId, type Canteen } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { freshFixturePerTest, type CreateRepositoryFixture } from './repository-fixture.js';
import { sampleMeal, readAt } from './sample-meals.js';

const academica: Canteen = {
  id: 'mensa-academica',
  name: 'Mensa Academica',
  timeZone: 'Europe/Berlin',
  city: 'Aachen',
  address: 'Pontwall 3, 52062 Aachen',
  coordinates: { lat: 50.77964, lng: 6.07838 },
  feeds: [],
  noteLabels: { 'mit Sesam': 'sesame', Gefl: 'poultry', '11': 'caffeine' },
  placeholderNames: ['Heute keine Ausgabe', 'Betriebsferien'],
};

const bare: Canteen = {
  id: 'bistro-7',
  name: 'Bistro 7',
  timeZone: 'America/New_York',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
  noteLabels: {},
  placeholderNames: [],
};

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

    it('answers a canteen saved without note spellings and placeholder names with none', async () => {
      const { canteens } = store();
      const { noteLabels: _spellings, placeholderNames: _names, ...older } = academica;
      await canteens.save(older);
      expect(await canteens.find(academica.id)).toEqual({ ...older, noteLabels: {}, placeholderNames: [] });
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
  });
}
