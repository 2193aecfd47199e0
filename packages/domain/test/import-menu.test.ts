import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import {
  ImportMenu,
  maxMealsPerCanteenDay,
  maxMealsPerImportWrite,
  noMealDetails,
  type MenuChange,
  type MenuDay,
  type MenuItem,
} from '@canteen-meals/domain';
import type { Clock } from '@canteen-meals/domain/ports';
import { accepted, probeThrough } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';

/** Imports run after the menus' days: a meal missing from a re-import is kept, not withdrawn. */
const afterTheMenu = new FixedClock('2025-06-01T00:00:00Z');

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
    items: [
      item('Currywurst', 'Tellergericht', { notes: ['Schwein'], prices: { student: '2.60', other: '5.20' } }),
      item('Salat', 'Beilage'),
    ],
  },
  { date: '2025-03-29', closed: true },
  { date: '2025-03-31', closed: false, items: [item('Linseneintopf'), item('Pudding', 'Dessert')] },
];

function setup(clock: Clock = afterTheMenu) {
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: serviceTime.timeZone }));
  const announced: MenuChange[] = [];
  const importMenu = new ImportMenu({
    ...adapters,
    clock,
    serviceStart: serviceTime.start,
    announce: (change) => announced.push(change),
  });
  const attempt = (days: MenuDay[], rateable = true) =>
    importMenu.execute({ source: 'Mensa Academica', days, rateable });
  const run = async (days: MenuDay[], rateable = true) => accepted(await attempt(days, rateable));
  return { ...adapters, run, attempt, announced, probe: probeThrough(() => adapters.queries) };
}

describe('ImportMenu', () => {
  it('adds every meal of the open days, served at the start of service on the canteen clocks', async () => {
    const { meals, run, probe } = setup();

    const plan = await run(week);

    expect(plan.added.map(({ meal }) => meal.name)).toEqual(['Currywurst', 'Salat', 'Linseneintopf', 'Pudding']);
    expect(await probe.meal(1)).toEqual({
      id: 1,
      name: 'Currywurst',
      servedAt: new Date('2025-03-28T10:00:00Z'),
      rateable: true,
      category: 'Tellergericht',
      notes: ['Schwein'],
      // The note stays, and names a label too.
      labels: ['pork'],
      prices: { student: '2.60', other: '5.20' },
      canteenId: 'default',
      position: 0,
    });
    // Monday after the change to summer time: 11:00 CEST.
    expect((await probe.meal(3))?.servedAt).toEqual(new Date('2025-03-31T09:00:00Z'));
    expect(await meals.count()).toBe(4);
  });

  it('announces a menu change only when the import changed the menu: the same menu again sends no reader to the database', async () => {
    const { run, announced } = setup();
    await run(week);
    expect(announced).toEqual([{ kind: 'menus' }]);

    await run(week);
    expect(announced).toHaveLength(1);

    const renamed = week.map((day) =>
      day.closed
        ? day
        : {
            ...day,
            items: day.items.map((entry, index) => (index === 0 ? { ...entry, prices: { student: '9.99' } } : entry)),
          },
    );
    await run(renamed);
    expect(announced).toEqual([{ kind: 'menus' }, { kind: 'menus' }]);
  });

  it('changes nothing when the same menu comes again', async () => {
    const { meals, run } = setup();
    await run(week);
    const again = await run(week);
    expect([again.added.length, again.updated.length, again.unchanged.length, again.missing.length]).toEqual([
      0, 0, 4, 0,
    ]);
    expect(await meals.count()).toBe(4);
  });

  it('keeps the ids of a day that a later feed repeats, and adds the new days', async () => {
    const { meals, run } = setup();
    await run(week);
    const later: MenuDay[] = [week[2]!, { date: '2025-04-01', closed: false, items: [item('Currywurst')] }];
    const plan = await run(later);
    expect(plan.unchanged.map((meal) => meal.id)).toEqual([3, 4]);
    expect(plan.added.map(({ meal }) => [meal.id, meal.name])).toEqual([[5, 'Currywurst']]);
    expect(await meals.count()).toBe(5);
  });

  it('adds a renamed meal under a new id and keeps the old meal with its ratings', async () => {
    const { run, probe } = setup();
    await run(week);
    const before = await probe.histogram(3);
    const renamed: MenuDay[] = [
      week[0]!,
      week[1]!,
      { ...week[2]!, items: [item('Linseneintopf mit Würstchen'), item('Pudding', 'Dessert')] } as MenuDay,
    ];

    const plan = await run(renamed);

    expect(plan.added.map(({ meal }) => [meal.id, meal.name])).toEqual([[5, 'Linseneintopf mit Würstchen']]);
    expect(plan.unchanged.map((meal) => meal.id)).toEqual([1, 2, 4]);
    expect(plan.missing.map((meal) => meal.id)).toEqual([3]);
    expect((await probe.meal(3))?.name).toBe('Linseneintopf');
    expect(await probe.histogram(3)).toEqual(before);
  });

  it('keeps the meals of a day that turns out closed', async () => {
    const { meals, run } = setup();
    await run(week);
    const plan = await run([{ date: '2025-03-31', closed: true }]);
    expect(plan.missing.map((meal) => meal.id)).toEqual([3, 4]);
    expect(await meals.count()).toBe(4);
  });

  it('withdraws the coming meals a re-import no longer lists, and serves them again when a feed lists them', async () => {
    const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: serviceTime.timeZone }));
    // The import runs on Sunday 30 March: Monday's meals are still to come, Friday's are past.
    const clock = new FixedClock('2025-03-30T12:00:00Z');
    const importMenu = new ImportMenu({ ...adapters, clock, serviceStart: serviceTime.start });
    const run = async (days: MenuDay[]) =>
      accepted(await importMenu.execute({ source: 'Mensa Academica', days, rateable: true }));
    const probe = probeThrough(() => adapters.queries);
    await run(week);

    const corrected = await run([
      { date: '2025-03-28', closed: false, items: [] },
      { ...week[2]!, items: [item('Linseneintopf')] } as MenuDay,
    ]);
    expect(corrected.missing.map((meal) => meal.id)).toEqual([1, 2, 4]);
    expect(corrected.withdrawn.map((meal) => meal.id)).toEqual([4]);
    expect(await probe.meal(4)).toBeUndefined();
    expect((await probe.meal(1))?.name).toBe('Currywurst');

    const again = await run([week[2]!]);
    expect(again.updated.map((meal) => meal.id)).toEqual([4]);
    expect((await probe.meal(4))?.name).toBe('Pudding');
  });

  it('keeps a meal listed twice in one category apart, by its order', async () => {
    const { run } = setup();
    const twice: MenuDay[] = [
      {
        date: '2025-03-28',
        closed: false,
        items: [
          item('Salat', 'Beilage', { prices: { student: '1.00' } }),
          item('Salat', 'Beilage', { prices: { student: '1.80' } }),
        ],
      },
    ];
    const first = await run(twice);
    const second = await run(twice);
    expect(first.added.map(({ meal }) => meal.prices)).toEqual([{ student: '1.00' }, { student: '1.80' }]);
    expect(second.unchanged.map((meal) => meal.id)).toEqual([1, 2]);
  });

  it('imports meals as not rateable when told so', async () => {
    const { run, probe } = setup();
    await run(week.slice(0, 1), false);
    expect((await probe.meal(1))?.rateable).toBe(false);
  });

  it.each([
    ['a day listed twice', [week[0]!, week[0]!], /2025-03-28 more than once/],
    ['a day not in the calendar', [{ date: '2025-02-29', closed: true }], /not a calendar day/],
    ['a blank name', [{ date: '2025-03-28', closed: false, items: [item('  ')] }], /2025-03-28, meal 1: the name/],
    [
      'an unusable price',
      [{ date: '2025-03-28', closed: false, items: [item('A', 'B', { prices: { student: '2.6' } })] }],
      /student price/,
    ],
  ] as [string, MenuDay[], RegExp][])('refuses %s and imports nothing', async (_, days, message) => {
    const { meals, attempt } = setup();
    expect(await attempt(days)).toMatchObject({
      ok: false,
      refusal: { code: 'invalid_meal', message: expect.stringMatching(message) },
    });
    expect(await meals.count()).toBe(0);
  });

  it('refuses a blank source', async () => {
    const { mealSources, canteens } = setup();
    expect(
      await new ImportMenu({ mealSources, canteens, clock: afterTheMenu, serviceStart: serviceTime.start }).execute({
        source: ' ',
        days: week,
        rateable: true,
      }),
    ).toMatchObject({
      ok: false,
      refusal: { code: 'invalid_meal', message: expect.stringMatching(/source/) },
    });
  });
});

describe('ImportMenu: at most 500 meals a day in a canteen', () => {
  const friday = '2025-03-28';
  const menuOf = (...names: string[]): MenuDay[] => [
    { date: friday, closed: false, items: names.map((name) => item(name)) },
  ];
  /** Meals an admin upserted on Friday, in the afternoon on the canteen's clocks, from id 1000 on. */
  const adminMeals = (count: number) =>
    Array.from({ length: count }, (_, index) => ({
      ...noMealDetails,
      id: 1000 + index,
      name: `Admin meal ${index}`,
      servedAt: new Date('2025-03-28T14:00:00Z'),
      rateable: true,
    }));

  it('refuses an import after which a day would serve more than 500 meals, counting the meals upserted by other means', async () => {
    const { meals, attempt, run } = setup();
    await meals.upsertMany(adminMeals(maxMealsPerCanteenDay - 1));

    expect(await attempt(menuOf('Currywurst', 'Salat'))).toEqual({
      ok: false,
      refusal: {
        code: 'menu_day_full',
        message: 'The canteen "default" would serve 501 meals on 2025-03-28; a day holds at most 500.',
      },
    });
    expect(await meals.count()).toBe(499);
    expect((await run(menuOf('Currywurst'))).added).toHaveLength(1);
  });

  it('counts the meals a re-import keeps once, and leaves the other days of the canteen out', async () => {
    const { meals, run } = setup();
    await meals.upsertMany(adminMeals(maxMealsPerCanteenDay - 2));
    await run(menuOf('Currywurst', 'Salat'));

    const again = await run([
      ...menuOf('Currywurst', 'Salat'),
      { date: '2025-03-31', closed: false, items: [item('Linseneintopf')] },
    ]);
    expect([again.unchanged.length, again.added.length]).toEqual([2, 1]);
  });

  it('counts what the day holds once the plan is written: a past meal it no longer lists stays, a coming one is withdrawn', async () => {
    const setUp = async (clock: Clock) => {
      const { meals, attempt, run } = setup(clock);
      await meals.upsertMany(adminMeals(maxMealsPerCanteenDay - 2));
      await run(menuOf('Currywurst', 'Salat'));
      return attempt(menuOf('Currywurst', 'Linseneintopf'));
    };

    // After Friday the missing Salat stays served: 498 + Currywurst + Salat + Linseneintopf.
    expect(await setUp(afterTheMenu)).toMatchObject({
      ok: false,
      refusal: { message: expect.stringContaining('would serve 501 meals') },
    });
    // Before Friday the import withdraws the Salat, which makes room for the Linseneintopf.
    const replaced = await setUp(new FixedClock('2025-03-27T12:00:00Z'));
    expect(replaced).toMatchObject({
      ok: true,
      value: { withdrawn: [{ name: 'Salat' }], added: [{ meal: { name: 'Linseneintopf' } }] },
    });
  });
});

describe(`ImportMenu: units of whole days of at most ${maxMealsPerImportWrite} meals, others running between them`, () => {
  /** `count` meals on each of the days, from 2025-03-03 on. */
  const days = (count: number, ...dates: string[]): MenuDay[] =>
    dates.map((date) => ({
      date,
      closed: false,
      items: Array.from({ length: count }, (_, index) => item(`Meal ${date} ${index}`)),
    }));

  function unitSetup() {
    const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: serviceTime.timeZone }));
    /** What the catalog held each time others were let run: the import's progress between its units. */
    const turns: number[] = [];
    const announced: string[] = [];
    const importMenu = new ImportMenu({
      ...adapters,
      clock: afterTheMenu,
      serviceStart: serviceTime.start,
      announce: (change) => void announced.push(change.kind),
      letOthersRun: async () => void turns.push(await adapters.meals.count()),
    });
    return {
      ...adapters,
      turns,
      announced,
      attempt: (menu: MenuDay[]) => importMenu.execute({ source: 'Mensa Academica', days: menu, rateable: true }),
    };
  }

  it('writes a menu of the usual size in one unit, and a large one day by day with others running in between', async () => {
    const small = unitSetup();
    expect(accepted(await small.attempt(days(40, '2025-03-03', '2025-03-04', '2025-03-05'))).added).toHaveLength(120);
    expect([small.turns, small.announced]).toEqual([[], ['menus']]);

    const large = unitSetup();
    const plan = accepted(await large.attempt(days(300, '2025-03-03', '2025-03-04', '2025-03-05')));
    // Checking the meals lets others run between days too (nothing written yet), then each day is its own unit.
    expect(large.turns).toEqual([0, 0, 300, 600]);
    expect(large.announced).toEqual(['menus', 'menus', 'menus']);
    expect(plan.added.map(({ meal }) => meal.id)).toEqual(Array.from({ length: 900 }, (_, index) => index + 1));
  });

  it('refuses a meal that cannot be stored before any unit is written', async () => {
    const { meals, attempt } = unitSetup();
    const menu = days(300, '2025-03-03', '2025-03-04');
    menu.push({ date: '2025-03-05', closed: false, items: [item('Soup'), item('')] });
    expect(await attempt(menu)).toMatchObject({
      ok: false,
      refusal: { code: 'invalid_meal', message: expect.stringContaining('2025-03-05, meal 2') },
    });
    expect(await meals.count()).toBe(0);
  });

  it('keeps the units written before a day the bound refuses, and names that day', async () => {
    const { meals, attempt } = unitSetup();
    await meals.upsertMany(
      Array.from({ length: maxMealsPerCanteenDay }, (_, index) => ({
        ...noMealDetails,
        id: 5000 + index,
        name: `Admin ${index}`,
        servedAt: new Date('2025-03-04T14:00:00Z'),
        rateable: true,
      })),
    );
    expect(await attempt(days(300, '2025-03-03', '2025-03-04'))).toMatchObject({
      ok: false,
      refusal: {
        code: 'menu_day_full',
        message: 'The canteen "default" would serve 800 meals on 2025-03-04; a day holds at most 500.',
      },
    });
    expect(await meals.count()).toBe(maxMealsPerCanteenDay + 300);
  });
});
