import {
  mealSourceKey,
  noMealDetails,
  planMenuImport,
  withMealDetails,
  type Meal,
  type MenuCandidate,
} from '@canteen-meals/domain';
import { accepted } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';

const servedAt = new Date('2025-03-10T10:00:00Z');

function candidate(name: string, details: Partial<MenuCandidate['meal']> = {}, date = '2025-03-10'): MenuCandidate {
  const meal = { ...noMealDetails, name, servedAt, rateable: true, category: 'Tellergericht', ...details };
  return { key: mealSourceKey('mensa', date, { category: meal.category ?? '', name }), servedOn: date, meal };
}

const stored = (id: number, from: MenuCandidate, changes: Partial<Meal> = {}): [string, Meal] => [
  from.key,
  withMealDetails({ ...from.meal, id, ...changes }),
];

/** An instant after every meal of these tests: nothing is in the future, so nothing is withdrawn. */
const afterEverything = new Date('2030-01-01T00:00:00Z');

describe('planMenuImport: withdrawals', () => {
  const before = new Date(servedAt.getTime() - 1);

  it('withdraws the missing meals still to be served, and only those not withdrawn yet', () => {
    const [a, b, c] = [
      candidate('A'),
      candidate('B'),
      candidate('C', { servedAt: new Date(servedAt.getTime() - 60_000) }),
    ];
    const known = new Map([stored(1, a), stored(2, b), stored(3, c)]);
    const plan = accepted(planMenuImport([a], { known, nextMealId: 4 }, new Date(servedAt.getTime() - 30_000)));
    expect(plan.missing.map((meal) => meal.id)).toEqual([2, 3]);
    expect(plan.withdrawn.map((meal) => meal.id)).toEqual([2]);
    const earlier = new Date(servedAt.getTime() - 120_000);
    const again = accepted(planMenuImport([a], { known, nextMealId: 4, withdrawn: new Set([2]) }, earlier));
    expect(again.withdrawn.map((meal) => meal.id)).toEqual([3]);
  });

  it('serves a withdrawn meal again when the menu lists it, as an update', () => {
    const a = candidate('A');
    const plan = accepted(
      planMenuImport([a], { known: new Map([stored(1, a)]), nextMealId: 2, withdrawn: new Set([1]) }, before),
    );
    expect(plan.updated.map((meal) => meal.id)).toEqual([1]);
    expect(plan.unchanged).toEqual([]);
    expect(plan.at).toEqual(before);
  });
});

describe('planMenuImport: the id rule of imports', () => {
  it('gives new meals consecutive ids from the next free one, in menu order', () => {
    const plan = accepted(
      planMenuImport(
        [candidate('A'), candidate('B'), candidate('C')],
        { known: new Map(), nextMealId: 41 },
        afterEverything,
      ),
    );
    expect(plan.added.map(({ meal }) => [meal.id, meal.name])).toEqual([
      [41, 'A'],
      [42, 'B'],
      [43, 'C'],
    ]);
    expect(plan.updated).toEqual([]);
    expect(plan.unchanged).toEqual([]);
  });

  it('keeps the id of a known key and calls it unchanged when nothing differs', () => {
    const a = candidate('A', { notes: ['vegan'], prices: { student: '2.60' } });
    const plan = accepted(planMenuImport([a], { known: new Map([stored(7, a)]), nextMealId: 8 }, afterEverything));
    expect(plan.added).toEqual([]);
    expect(plan.unchanged.map((meal) => meal.id)).toEqual([7]);
  });

  it.each([
    ['a price', { prices: { student: '2.80' } }],
    ['a note', { notes: ['vegan'] }],
    ['the order of the notes', { notes: ['scharf', 'vegan'] }],
    ['the time of service', { servedAt: new Date('2025-03-10T09:30:00Z') }],
    ['the spelling of the name, case and spaces aside', { name: 'spaghetti  BOLOGNESE' }],
  ])('updates a known meal in place when %s changes', (_, changes) => {
    const before = candidate('Spaghetti Bolognese', { notes: ['vegan', 'scharf'], prices: { student: '2.60' } });
    const after: MenuCandidate = { ...before, meal: { ...before.meal, ...changes } };
    expect(mealSourceKey('mensa', '2025-03-10', after.meal as { category: string; name: string })).toBe(before.key);

    const plan = accepted(
      planMenuImport([after], { known: new Map([stored(7, before)]), nextMealId: 8 }, afterEverything),
    );

    expect(plan.updated).toEqual([withMealDetails({ ...after.meal, id: 7 })]);
    expect(plan.added).toEqual([]);
  });

  it('adds a renamed meal as a new meal and leaves the old one, and its id, alone', () => {
    const old = candidate('Currywurst');
    const renamed = candidate('Currywurst mit Pommes');
    const plan = accepted(
      planMenuImport([renamed], { known: new Map([stored(3, old)]), nextMealId: 10 }, afterEverything),
    );
    expect(plan.added.map(({ meal }) => meal.id)).toEqual([10]);
    expect(plan.missing.map((meal) => meal.id)).toEqual([3]);
    expect(plan.updated).toEqual([]);
  });

  it('keeps the rateable flag of a known meal: an admin may have changed it', () => {
    const a = candidate('Salatbuffet');
    const plan = accepted(
      planMenuImport([a], { known: new Map([stored(7, a, { rateable: false })]), nextMealId: 8 }, afterEverything),
    );
    expect(plan.unchanged).toEqual([withMealDetails({ ...a.meal, id: 7, rateable: false })]);
  });

  it('lists the known meals the menu no longer has as missing, to be kept', () => {
    const [a, b, c] = [candidate('A'), candidate('B'), candidate('C')];
    const plan = accepted(
      planMenuImport(
        [b],
        { known: new Map([stored(2, a), stored(1, c), stored(3, b)]), nextMealId: 4 },
        afterEverything,
      ),
    );
    expect(plan.missing.map((meal) => meal.id)).toEqual([1, 2]);
    expect(plan.unchanged.map((meal) => meal.id)).toEqual([3]);
  });

  it('refuses a key listed twice and ids beyond the safe integers', () => {
    expect(() =>
      planMenuImport([candidate('A'), candidate('A')], { known: new Map(), nextMealId: 1 }, afterEverything),
    ).toThrow(RangeError);
    expect(
      planMenuImport([candidate('A')], { known: new Map(), nextMealId: Number.MAX_SAFE_INTEGER + 1 }, afterEverything),
    ).toMatchObject({
      ok: false,
      refusal: { code: 'invalid_meal', message: expect.stringMatching(/no meal id is left/) },
    });
  });
});

describe('mealSourceKey', () => {
  it('tells meals apart by source, day, category and name; not by case, composition or spaces', () => {
    const key = mealSourceKey('mensa', '2025-03-10', { category: 'Tellergericht', name: 'Käsespätzle' });
    expect(mealSourceKey('mensa', '2025-03-10', { category: ' TELLERGERICHT ', name: 'Ka\u0308sespa\u0308tzle' })).toBe(
      key,
    );
    expect(mealSourceKey('mensa', '2025-03-10', { category: 'Tellergericht', name: 'Käse  spätzle' })).not.toBe(key);
    expect(mealSourceKey('bistro', '2025-03-10', { category: 'Tellergericht', name: 'Käsespätzle' })).not.toBe(key);
    expect(mealSourceKey('mensa', '2025-03-11', { category: 'Tellergericht', name: 'Käsespätzle' })).not.toBe(key);
    expect(mealSourceKey('mensa', '2025-03-10', { category: 'Vegetarisch', name: 'Käsespätzle' })).not.toBe(key);
    expect(mealSourceKey('mensa', '2025-03-10', { category: 'Tellergericht', name: 'Käsespätzle' }, 2)).not.toBe(key);
  });

  it('cannot be forged by separators inside the parts', () => {
    const a = mealSourceKey('a","b', '2025-03-10', { category: 'c', name: 'd' });
    const b = mealSourceKey('a', '2025-03-10', { category: 'b","c', name: 'd' });
    expect(a).not.toBe(b);
  });
});
