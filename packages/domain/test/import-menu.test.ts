import { createInMemoryAdapters } from '@canteen-meals/adapters-memory';
import { DomainError, ImportMenu, type MenuDay, type MenuItem } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';

const serviceTime = { start: '11:00', timeZone: 'Europe/Berlin' };

const item = (name: string, category = 'Tellergericht', details: Partial<MenuItem> = {}): MenuItem => ({
  category,
  name,
  notes: [],
  prices: {},
  ...details,
});

const week: MenuDay[] = [
  {
    date: '2025-03-28',
    closed: false,
    items: [item('Currywurst', 'Tellergericht', { notes: ['Schwein'], prices: { student: '2.60', other: '5.20' } }), item('Salat', 'Beilage')],
  },
  { date: '2025-03-29', closed: true },
  { date: '2025-03-31', closed: false, items: [item('Linseneintopf'), item('Pudding', 'Dessert')] },
];

function setup() {
  const adapters = createInMemoryAdapters();
  const importMenu = new ImportMenu({ mealSources: adapters.mealSources, serviceTime });
  const run = (days: MenuDay[], rateable = true) => importMenu.execute({ source: 'Mensa Academica', days, rateable });
  return { ...adapters, run };
}

describe('ImportMenu', () => {
  it('adds every meal of the open days, served at the start of service on the canteen clocks', async () => {
    const { meals, run } = setup();

    const plan = await run(week);

    expect(plan.added.map(({ meal }) => meal.name)).toEqual(['Currywurst', 'Salat', 'Linseneintopf', 'Pudding']);
    expect(await meals.findById(1)).toEqual({
      id: 1,
      name: 'Currywurst',
      servedAt: new Date('2025-03-28T10:00:00Z'),
      rateable: true,
      category: 'Tellergericht',
      notes: ['Schwein'],
      prices: { student: '2.60', other: '5.20' },
    });
    // Monday after the change to summer time: 11:00 CEST.
    expect((await meals.findById(3))?.servedAt).toEqual(new Date('2025-03-31T09:00:00Z'));
    expect(await meals.count()).toBe(4);
  });

  it('changes nothing when the same menu comes again', async () => {
    const { meals, run } = setup();
    await run(week);
    const again = await run(week);
    expect([again.added.length, again.updated.length, again.unchanged.length, again.missing.length]).toEqual([0, 0, 4, 0]);
    expect(await meals.count()).toBe(4);
  });

  it('keeps the ids of a day that a later feed repeats, and adds the new days', async () => {
    const { meals, run } = setup();
    await run(week);
    const later: MenuDay[] = [
      week[2]!,
      { date: '2025-04-01', closed: false, items: [item('Currywurst')] },
    ];
    const plan = await run(later);
    expect(plan.unchanged.map((meal) => meal.id)).toEqual([3, 4]);
    expect(plan.added.map(({ meal }) => [meal.id, meal.name])).toEqual([[5, 'Currywurst']]);
    expect(await meals.count()).toBe(5);
  });

  it('adds a renamed meal under a new id and keeps the old meal with its ratings', async () => {
    const { meals, ratings, run } = setup();
    await run(week);
    const before = await ratings.histogram(3);
    const renamed: MenuDay[] = [week[0]!, week[1]!, { ...week[2]!, items: [item('Linseneintopf mit Würstchen'), item('Pudding', 'Dessert')] } as MenuDay];

    const plan = await run(renamed);

    expect(plan.added.map(({ meal }) => [meal.id, meal.name])).toEqual([[5, 'Linseneintopf mit Würstchen']]);
    expect(plan.unchanged.map((meal) => meal.id)).toEqual([1, 2, 4]);
    expect(plan.missing.map((meal) => meal.id)).toEqual([3]);
    expect((await meals.findById(3))?.name).toBe('Linseneintopf');
    expect(await ratings.histogram(3)).toEqual(before);
  });

  it('keeps the meals of a day that turns out closed', async () => {
    const { meals, run } = setup();
    await run(week);
    const plan = await run([{ date: '2025-03-31', closed: true }]);
    expect(plan.missing.map((meal) => meal.id)).toEqual([3, 4]);
    expect(await meals.count()).toBe(4);
  });

  it('keeps a meal listed twice in one category apart, by its order', async () => {
    const { run } = setup();
    const twice: MenuDay[] = [
      { date: '2025-03-28', closed: false, items: [item('Salat', 'Beilage', { prices: { student: '1.00' } }), item('Salat', 'Beilage', { prices: { student: '1.80' } })] },
    ];
    const first = await run(twice);
    const second = await run(twice);
    expect(first.added.map(({ meal }) => meal.prices)).toEqual([{ student: '1.00' }, { student: '1.80' }]);
    expect(second.unchanged.map((meal) => meal.id)).toEqual([1, 2]);
  });

  it('imports meals as not rateable when told so', async () => {
    const { meals, run } = setup();
    await run(week.slice(0, 1), false);
    expect((await meals.findById(1))?.rateable).toBe(false);
  });

  it.each([
    ['a day listed twice', [week[0]!, week[0]!], /2025-03-28 more than once/],
    ['a day not in the calendar', [{ date: '2025-02-29', closed: true }], /not a calendar day/],
    ['a blank name', [{ date: '2025-03-28', closed: false, items: [item('  ')] }], /2025-03-28, meal 1: the name/],
    ['an unusable price', [{ date: '2025-03-28', closed: false, items: [item('A', 'B', { prices: { student: '2.6' } })] }], /student price/],
  ] as [string, MenuDay[], RegExp][])('refuses %s and imports nothing', async (_, days, message) => {
    const { meals, run } = setup();
    await expect(run(days)).rejects.toThrow(DomainError);
    await expect(run(days)).rejects.toThrow(message);
    expect(await meals.count()).toBe(0);
  });

  it('refuses a blank source', async () => {
    const { mealSources } = setup();
    await expect(new ImportMenu({ mealSources, serviceTime }).execute({ source: ' ', days: week, rateable: true })).rejects.toThrow(
      /source/,
    );
  });
});
