import { defaultCanteenId, maxOpenMensaId, type Canteen } from '@canteen-meals/domain';
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
      expect(await canteens.find(academica.id)).toEqual({
        ...older,
        openmensaId: expect.any(Number),
        noteLabels: {},
        placeholderNames: [],
      });
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
      const moved = {
        ...academica,
        name: 'Mensa Academica (Umbau)',
        timeZone: 'Europe/Vienna',
        city: null,
        coordinates: null,
        feeds: [],
      };
      expect(await canteens.save(moved)).toMatchObject({ ok: true, value: { created: false } });
      expect(await canteens.find(academica.id)).toEqual({ ...moved, openmensaId: expect.any(Number) });
    });

    it("keeps a canteen's feeds in their order, and replaces them with the canteen", async () => {
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
      expect(taken).toEqual({
        ok: false,
        refusal: { code: 'openmensa_id_taken', message: expect.stringContaining('openmensa_id 187') },
      });
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

    it("keeps a canteen's meals when the canteen is replaced", async () => {
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

/** A canteen as stored: with the OpenMensa number the repository gave it. */
const numbered = <T extends object>(canteen: T) => ({
  ...canteen,
  openmensaId: expect.any(Number) as unknown as number,
});

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
    expect(listed[1]).toEqual({ ...numbered(academica), archivedAt: null });
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
      { ...numbered(bare), archivedAt: null },
      { ...(await canteens.find(defaultCanteenId))!, archivedAt: null },
      { ...numbered(academica), archivedAt },
    ]);
    expect((await queries.viewsByIds('alice', [1], readAt))[0]?.meal.canteenId).toBe(academica.id);
  });

  it('keeps the first archivedAt when an archived canteen is archived again, and archives no unknown id', async () => {
    const { canteens } = store();
    await canteens.save(academica);
    await canteens.archive(academica.id, archivedAt);
    const later = new Date(archivedAt.getTime() + 60_000);
    expect(await canteens.archive(academica.id, later)).toEqual(archivedAt);
    expect((await canteens.listWithArchived()).find((canteen) => canteen.id === academica.id)?.archivedAt).toEqual(
      archivedAt,
    );
    expect(await canteens.archive('nowhere', later)).toBeUndefined();
    expect((await canteens.listWithArchived()).map((canteen) => canteen.id)).toEqual([defaultCanteenId, academica.id]);
  });

  it('restores an archived canteen when it is saved: found and listed again with its new fields and its meals', async () => {
    const { canteens, meals, queries } = store();
    await canteens.save(academica);
    await meals.upsertMany([{ ...sampleMeal(1), canteenId: academica.id }]);
    await canteens.archive(academica.id, archivedAt);
    const renamed = { ...academica, name: 'Mensa Academica (neu)' };
    expect(await canteens.save(renamed)).toEqual({ ok: true, value: { created: false, canteen: numbered(renamed) } });
    expect(await canteens.find(academica.id)).toEqual(numbered(renamed));
    expect((await canteens.list()).map((canteen) => canteen.id)).toEqual([defaultCanteenId, academica.id]);
    expect((await canteens.listWithArchived()).find((canteen) => canteen.id === academica.id)?.archivedAt).toBeNull();
    expect((await queries.viewsByIds('alice', [1], readAt))[0]?.meal.canteenId).toBe(academica.id);
    // Archived again after the restore: a new instant, not the first archive's.
    const later = new Date(archivedAt.getTime() + 60_000);
    expect(await canteens.archive(academica.id, later)).toEqual(later);
  });

  it("keeps an archived canteen's OpenMensa number: not found by it, but taken, and its own again when restored", async () => {
    const { canteens } = store();
    const saved = await canteens.save(academica);
    const number = saved.ok ? saved.value.canteen.openmensaId : -1;
    await canteens.archive(academica.id, archivedAt);
    expect(await canteens.findByOpenMensaId(number)).toBeUndefined();
    const taken = await canteens.save({ ...bare, openmensaId: number });
    expect(taken.ok).toBe(false);
    expect(taken.ok ? undefined : taken.refusal.code).toBe('openmensa_id_taken');
    await canteens.save(academica);
    expect((await canteens.findByOpenMensaId(number))?.id).toBe(academica.id);
  });

  it('archives the default canteen like any other', async () => {
    const { canteens } = store();
    expect(await canteens.archive(defaultCanteenId, archivedAt)).toEqual(archivedAt);
    expect(await canteens.find(defaultCanteenId)).toBeUndefined();
    expect(await canteens.list()).toEqual([]);
    expect((await canteens.listWithArchived()).map((canteen) => [canteen.id, canteen.archivedAt])).toEqual([
      [defaultCanteenId, archivedAt],
    ]);
  });
}
