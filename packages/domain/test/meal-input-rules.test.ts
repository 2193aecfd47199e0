import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import {
  accept,
  ImportMenu,
  maxChosenMealId,
  UpsertMeals,
  type Meal,
  type MenuItem,
  type RefusalCode,
  type Result,
} from '@canteen-meals/domain';
import { accepted } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';

/** Imports run after the menus' days: a meal missing from a re-import is kept, not withdrawn. */
const afterTheMenu = new FixedClock('2025-06-01T00:00:00Z');

const servedAt = new Date('2025-03-10T11:30:00.000Z');
const meal = (id: number, overrides: Partial<Meal> = {}): Meal => ({
  id,
  name: `Meal ${id}`,
  servedAt,
  rateable: true,
  ...overrides,
});
const item = (name: string, details: Partial<MenuItem> = {}): MenuItem => ({
  category: 'Tellergericht',
  name,
  notes: [],
  prices: {},
  ...details,
});

function setup() {
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: 'Europe/Berlin' }));
  const upsertMeals = new UpsertMeals(adapters);
  const importMenu = new ImportMenu({ ...adapters, clock: afterTheMenu, serviceStart: '11:00' });
  const importDay = (items: MenuItem[]) =>
    importMenu.execute({ source: 'Mensa', days: [{ date: '2025-03-28', closed: false, items }], rateable: true });
  return { ...adapters, upsertMeals, importDay };
}

/** The refusal a use case answered, or undefined when it accepted. */
const refusal = async (answer: Promise<Result<unknown, RefusalCode>>) => {
  const result = await answer;
  return result.ok ? undefined : result.refusal;
};

describe('meal texts hold no control character', () => {
  const controls = ['\u0000', '\u0001', '\t', '\n', '\r', '\u001f', '\u007f', '\u0085', '\u0096', '\u009f'];

  it.each(
    controls.map((c) => [`U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}`, c]),
  )('refuses %s in a name, a category or a note at the upsert, and stores nothing', async (_, control) => {
    const { upsertMeals, meals } = setup();
    for (const bad of [
      { name: `Chili${control}con Carne` },
      { category: `Haupt${control}gericht` },
      { notes: ['vegan', `scharf${control}`] },
    ]) {
      const answer = await refusal(upsertMeals.execute([meal(1), meal(2, bad)]));
      expect(answer).toMatchObject({
        code: 'invalid_meal',
        message: expect.stringMatching(/^meals\[1\]: .*no control character/),
      });
    }
    expect(await meals.count()).toBe(0);
  });

  it('refuses a control character in an imported menu, importing nothing', async () => {
    const { importDay, meals } = setup();
    expect(await refusal(importDay([item('Salat'), item('Chili\u0007con Carne')]))).toMatchObject({
      code: 'invalid_meal',
      message: expect.stringContaining('no control character'),
    });
    expect(await refusal(importDay([item('Salat', { notes: ['\u0096 vegan'] })]))).toMatchObject({
      code: 'invalid_meal',
    });
    expect(await meals.count()).toBe(0);
  });

  it('accepts what menus do hold: accents, emoji, a no-break space, typographic dashes', async () => {
    const { upsertMeals } = setup();
    await expect(
      upsertMeals.execute([meal(1, { name: 'Crème brûlée 🍮 – hausgemacht\u00a0(vegan)' })]),
    ).resolves.toEqual(accept({ upserted: 1 }));
  });
});

describe('meal ids', () => {
  it('an upsert chooses ids from 1 to 2^31 - 1: a larger one is refused', async () => {
    const { upsertMeals } = setup();
    expect(maxChosenMealId).toBe(2 ** 31 - 1);
    for (const id of [maxChosenMealId + 1, Number.MAX_SAFE_INTEGER]) {
      expect(await refusal(upsertMeals.execute([meal(id)]))).toMatchObject({
        code: 'invalid_meal',
        message: 'meals[0]: the meal id must be an integer from 1 to 2147483647',
      });
    }
    await expect(upsertMeals.execute([meal(maxChosenMealId)])).resolves.toEqual(accept({ upserted: 1 }));
  });

  it('no upsert can block later imports: after the highest chosen id, an import numbers its meals above it', async () => {
    const { upsertMeals, importDay, meals } = setup();
    await upsertMeals.execute([meal(maxChosenMealId)]);

    const plan = accepted(await importDay([item('Currywurst'), item('Salat')]));

    expect(plan.added.map(({ meal: added }) => added.id)).toEqual([maxChosenMealId + 1, maxChosenMealId + 2]);
    expect(await meals.count()).toBe(3);
  });
});

describe('a meal is served on a day that a read can name', () => {
  it.each([
    '0000-01-01T11:00:00Z',
    '0001-01-01T23:59:59.999Z',
    '9999-12-31T00:00:00Z',
    '9999-12-31T23:30:00Z',
  ])('refuses served_at %s: its day lies outside the years 0001 to 9999 on some clock', async (instant) => {
    const { upsertMeals, meals } = setup();
    const answer = await refusal(upsertMeals.execute([meal(1, { servedAt: new Date(instant) })]));
    expect(answer).toMatchObject({
      code: 'invalid_meal',
      message: expect.stringMatching(/^meals\[0\]: served_at must lie from 0001-01-02/),
    });
    expect(await meals.count()).toBe(0);
  });

  it('takes the first and the last instant of the bounds', async () => {
    const { upsertMeals } = setup();
    const first = meal(1, { servedAt: new Date('0001-01-02T00:00:00Z') });
    const last = meal(2, { servedAt: new Date('9999-12-30T23:59:59.999Z') });
    expect(await refusal(upsertMeals.execute([first, last]))).toBeUndefined();
  });
});
