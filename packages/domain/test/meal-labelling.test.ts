import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { ImportMenu, UpsertMeals, type Canteen, type MenuDay, type MenuItem } from '@canteen-meals/domain';
import { accepted, MealMother, probeThrough } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';

const clock = new FixedClock('2025-06-01T00:00:00Z');
const timeZone = 'Europe/Berlin';

const item = (name: string, notes: string[] = []): MenuItem => ({ category: 'Tellergericht', name, notes, prices: {} });

const mensa: Canteen = {
  id: 'mensa',
  name: 'Mensa',
  timeZone,
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
  noteLabels: { 'mit Sesam': 'sesame', '11': 'caffeine' },
  placeholderNames: ['Betriebsferien'],
};

async function setup() {
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: timeZone }));
  await adapters.canteens.save(mensa);
  const importMenu = new ImportMenu({ ...adapters, clock, serviceStart: '11:00' });
  const upsertMeals = new UpsertMeals({ ...adapters, clock });
  const run = async (days: MenuDay[], canteenId = 'mensa') =>
    accepted(await importMenu.execute({ source: 'feed', days, rateable: true, canteenId }));
  return { ...adapters, run, upsertMeals, probe: probeThrough(() => adapters.queries) };
}

describe('labels when meals are written', () => {
  it('an import maps the notes to codes with their parents, by the canteen spellings first, and keeps the notes', async () => {
    const { run, probe } = await setup();
    const notes = ['Weizen', 'mit Sesam', '11', 'jodiertes Salz', 'vegan'];
    const plan = await run([{ date: '2025-03-28', closed: false, items: [item('Falafel', notes)] }]);
    const meal = await probe.meal(plan.added[0]!.meal.id);
    expect(meal?.labels).toEqual(['caffeine', 'gluten', 'sesame', 'vegan', 'vegetarian', 'wheat']);
    expect(meal?.notes).toEqual(notes);
  });

  it('a re-import of a meal whose notes changed updates its labels', async () => {
    const { run, probe } = await setup();
    await run([{ date: '2025-03-28', closed: false, items: [item('Curry', ['Senf'])] }]);
    const again = await run([{ date: '2025-03-28', closed: false, items: [item('Curry', ['Sellerie'])] }]);
    expect(again.updated).toHaveLength(1);
    expect((await probe.meal(again.updated[0]!.id))?.labels).toEqual(['celery']);
  });

  it("imports placeholders, built-in and the canteen's own, as not rateable with the label placeholder", async () => {
    const { run, probe } = await setup();
    const plan = await run([
      { date: '2025-03-28', closed: false, items: [item('Kein Angebot'), item('Betriebsferien!'), item('Suppe')] },
    ]);
    const [none, holidays, soup] = await Promise.all(plan.added.map(({ meal }) => probe.meal(meal.id)));
    expect(none).toMatchObject({ rateable: false, labels: ['placeholder'], name: 'Kein Angebot' });
    expect(holidays).toMatchObject({ rateable: false, labels: ['placeholder'] });
    expect(soup).toMatchObject({ rateable: true, labels: [] });
  });

  it('the upsert takes labels as given, adds their parents and what the notes name', async () => {
    const { upsertMeals, probe } = await setup();
    const meal = MealMother.servedAt(new Date('2025-03-28T10:00:00Z'), {
      id: 7,
      canteenId: 'mensa',
      notes: ['Ei'],
      labels: ['almonds', 'vegan'],
    });
    accepted(await upsertMeals.execute([meal]));
    expect((await probe.meal(7))?.labels).toEqual(['almonds', 'eggs', 'nuts', 'vegan', 'vegetarian']);
  });

  it('the upsert refuses an unknown code, naming it, and writes nothing', async () => {
    const { upsertMeals, meals } = await setup();
    const result = await upsertMeals.execute([
      MealMother.servedAt(new Date('2025-03-28T10:00:00Z'), { id: 1, labels: ['gluten', 'glutenfree'] }),
    ]);
    expect(result).toEqual({
      ok: false,
      refusal: { code: 'invalid_meal', message: expect.stringContaining('"glutenfree"') },
    });
    expect(await meals.count()).toBe(0);
  });
});
