import { defaultCanteenId, maxOpenMensaId, type Canteen } from '@canteen-meals/domain';
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
      expect(await canteens.save(academica)).toMatchObject({ ok: true, value: { created: true } });
      expect(await canteens.save(bare)).toMatchObject({ ok: true, value: { created: true } });
      expect(await canteens.find(academica.id)).toEqual({ ...academica, openmensaId: expect.any(Number) });
      expect(await canteens.find(bare.id)).toEqual({ ...bare, openmensaId: expect.any(Number) });
      expect(await canteens.find('nowhere')).toBeUndefined();
    });

    it('replaces every field of an existing canteen, and answers that it did not create one', async () => {
      const { canteens } = store();
      await canteens.save(academica);
      const moved = { ...academica, name: 'Mensa Academica (Umbau)', timeZone: 'Europe/Vienna', city: null, coordinates: null, feeds: [] };
      expect(await canteens.save(moved)).toMatchObject({ ok: true, value: { created: false } });
      expect(await canteens.find(academica.id)).toEqual({ ...moved, openmensaId: expect.any(Number) });
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

    it('numbers the default canteen and each new one with a number no canteen has, one above the highest', async () => {
      const { canteens } = store();
      const fallback = (await canteens.find(defaultCanteenId))!;
      expect(fallback.openmensaId).toBeGreaterThanOrEqual(1);
      const first = await canteens.save(academica);
      const second = await canteens.save(bare);
      if (!first.ok || !second.ok) throw new Error('refused');
      expect(first.value.canteen.openmensaId).toBe(fallback.openmensaId + 1);
      expect(second.value.canteen.openmensaId).toBe(fallback.openmensaId + 2);
      expect((await canteens.list()).map((canteen) => canteen.openmensaId)).toEqual([
        second.value.canteen.openmensaId,
        fallback.openmensaId,
        first.value.canteen.openmensaId,
      ]);
    });

    it('keeps a given number, keeps it through a save that leaves it out, and finds the canteen by it', async () => {
      const { canteens } = store();
      const saved = await canteens.save({ ...academica, openmensaId: 187 });
      expect(saved).toEqual({ ok: true, value: { created: true, canteen: { ...academica, openmensaId: 187 } } });
      await canteens.save({ ...academica, name: 'Renamed' });
      expect((await canteens.find(academica.id))?.openmensaId).toBe(187);
      await canteens.save({ ...academica, openmensaId: 187 });
      expect(await canteens.findByOpenMensaId(187)).toEqual({ ...academica, openmensaId: 187 });
      expect(await canteens.findByOpenMensaId(188)).toBeUndefined();
      // The next new canteen goes above the highest number.
      const next = await canteens.save(bare);
      expect(next.ok && next.value.canteen.openmensaId).toBe(188);
      // A canteen may move to another free number; its old one is free then.
      await canteens.save({ ...academica, openmensaId: 5 });
      expect(await canteens.findByOpenMensaId(187)).toBeUndefined();
      expect((await canteens.findByOpenMensaId(5))?.id).toBe(academica.id);
    });

    it('refuses a number another canteen has, naming the field and the holder, and writes nothing', async () => {
      const { canteens } = store();
      await canteens.save({ ...academica, openmensaId: 187 });
      const before = await canteens.list();
      const taken = await canteens.save({ ...bare, openmensaId: 187 });
      expect(taken).toEqual({ ok: false, refusal: { code: 'openmensa_id_taken', message: expect.stringContaining('openmensa_id 187') } });
      expect(!taken.ok && taken.refusal.message).toContain('mensa-academica');
      const fallback = (await canteens.find(defaultCanteenId))!;
      expect(await canteens.save({ ...fallback, name: 'Moved', openmensaId: 187 })).toMatchObject({ ok: false });
      expect(await canteens.list()).toEqual(before);
    });

    it('at the top of the range, gives a new canteen the lowest free number', async () => {
      const { canteens } = store();
      const fallback = (await canteens.find(defaultCanteenId))!;
      await canteens.save({ ...fallback, openmensaId: 2 });
      await canteens.save({ ...academica, openmensaId: maxOpenMensaId });
      const next = await canteens.save(bare);
      expect(next.ok && next.value.canteen.openmensaId).toBe(1);
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
