import { describe, expect, it } from 'vitest';
import {
  accept,
  defaultMenuSelection,
  GetPersonalizedMeals,
  GetPersonalizedMenu,
  GetPersonalizedUpcoming,
  menuSelectionKey,
  menuSelectionOf,
  refuse,
  selects,
  type LabelCode,
  type MealReading,
  type MenuDays,
  type MenuSelection,
  type PersonalState,
  type PersonPreferences,
} from '../src/index.js';

/** A meal as the policy reads it: its labels and its dish (the rest of a reading is not looked at). */
const reading = (mealId: number, labels: LabelCode[] = [], dishId = mealId) =>
  ({ meal: { id: mealId, labels }, dish: { id: dishId } }) as unknown as MealReading;

const person = (without: LabelCode[] = [], avoided: number[] = []): PersonPreferences => ({
  filter: { without, only: [] },
  aversions: avoided.map((dishId) => ({ dishId, since: new Date('2026-03-01T00:00:00Z') })),
});
const selection = (request: Parameters<typeof menuSelectionOf>[0]): MenuSelection => {
  const result = menuSelectionOf(request);
  if (!result.ok) throw new Error(result.refusal.message);
  return result.value;
};
const state = (mealId: number): PersonalState => ({ mealId, marked: true, personalRating: null });
const days: MenuDays = { canteenId: 'mensa', from: '2026-03-10', to: '2026-03-10' };

/** Kept menus of a day's meals, counting the selections read; `later` changes the menu after the first read. */
function menusOf(meals: MealReading[], later: MealReading[] = meals) {
  const asked: string[] = [];
  return {
    asked,
    menus: {
      answer: async (_days: MenuDays, chosen: MenuSelection) => {
        const served = asked.length === 0 ? meals : later;
        asked.push(menuSelectionKey(chosen));
        const mealIds = served.filter((meal) => selects(chosen, meal.meal)).map((meal) => meal.meal.id);
        return accept({ mealIds });
      },
    },
  };
}

/** The reader's part: their states of the meals asked about (of those in `states`), and their preferences. */
function personalPartOf(states: PersonalState[], preferences: PersonPreferences) {
  const reads: number[][] = [];
  return {
    reads,
    getPersonalPart: {
      execute: async ({ mealIds }: { readonly mealIds: readonly number[] }) => {
        reads.push([...mealIds]);
        return { states: states.filter((one) => mealIds.includes(one.mealId)), preferences };
      },
    },
  };
}

const day = [reading(1, ['pork']), reading(2, ['vegan']), reading(3, ['placeholder']), reading(4, ['milk'], 9)];

describe('GetPersonalizedMenu', () => {
  it("answers the menu of the read's own selection when the reader's preferences do not narrow it: one read", async () => {
    const { menus, asked } = menusOf(day);
    const part = personalPartOf([state(2)], person([], [9]));
    const menu = await new GetPersonalizedMenu({ menus, ...part }).execute({
      userId: 'ann',
      days,
      selection: defaultMenuSelection,
      all: false,
      hideAvoided: false,
    });
    expect(menu).toEqual(accept({ answer: { mealIds: [1, 2, 4] }, states: [state(2)], aversions: expect.anything() }));
    expect(menu.ok && [...menu.value.aversions.dishIds]).toEqual([9]);
    expect(asked).toEqual([menuSelectionKey(defaultMenuSelection)]);
    expect(part.reads).toEqual([[1, 2, 4]]);
  });

  it("answers the narrower menu of the reader's preferences, their states in its order, without a second read of them", async () => {
    const { menus, asked } = menusOf(day);
    const part = personalPartOf([state(4), state(1), state(2)], person(['pork']));
    const menu = await new GetPersonalizedMenu({ menus, ...part }).execute({
      userId: 'ann',
      days,
      selection: defaultMenuSelection,
      all: false,
      hideAvoided: true,
    });
    expect(menu.ok && menu.value.answer).toEqual({ mealIds: [2, 4] });
    expect(menu.ok && menu.value.states).toEqual([state(2), state(4)]);
    expect(menu.ok && menu.value.aversions.hide).toBe(true);
    expect(asked).toHaveLength(2);
    expect(part.reads).toHaveLength(1);
  });

  it("with all, answers the read's own selection whatever the preferences", async () => {
    const { menus, asked } = menusOf(day);
    const part = personalPartOf([], person(['pork']));
    const menu = await new GetPersonalizedMenu({ menus, ...part }).execute({
      userId: 'ann',
      days,
      selection: selection({ placeholders: true }),
      all: true,
      hideAvoided: false,
    });
    expect(menu.ok && menu.value.answer).toEqual({ mealIds: [1, 2, 3, 4] });
    expect(asked).toHaveLength(1);
  });

  it("reads the reader's states again when the menu changed between its two reads and brought a meal in", async () => {
    const { menus } = menusOf(day, [...day, reading(5, ['vegan'])]);
    const part = personalPartOf([state(5), state(2)], person(['pork']));
    const menu = await new GetPersonalizedMenu({ menus, ...part }).execute({
      userId: 'ann',
      days,
      selection: defaultMenuSelection,
      all: false,
      hideAvoided: false,
    });
    expect(menu.ok && menu.value.answer).toEqual({ mealIds: [2, 4, 5] });
    expect(menu.ok && menu.value.states).toEqual([state(2), state(5)]);
    expect(part.reads).toEqual([
      [1, 2, 4],
      [2, 4, 5],
    ]);
  });

  it('answers the refusal of the menu read, and reads nothing of the reader then', async () => {
    const part = personalPartOf([], person());
    const menus = { answer: async () => refuse('canteen_not_found') };
    const menu = await new GetPersonalizedMenu({ menus, ...part }).execute({
      userId: 'ann',
      days,
      selection: defaultMenuSelection,
      all: false,
      hideAvoided: false,
    });
    expect(menu).toEqual(refuse('canteen_not_found'));
    expect(part.reads).toEqual([]);
  });
});

describe('GetPersonalizedMeals', () => {
  const read = (preferences: PersonPreferences, meals = day) => {
    const queries: unknown[] = [];
    const useCase = new GetPersonalizedMeals({
      getMeals: {
        execute: async (query) => {
          queries.push(query);
          return accept({ meals, unknownIds: 'mealIds' in query ? [99] : [], next: null });
        },
      },
      getPreferences: { execute: async () => preferences },
    });
    return { useCase, queries };
  };
  const shown = (result: Awaited<ReturnType<GetPersonalizedMeals['execute']>>) =>
    result.ok ? result.value.meals.map(({ reading, avoided }) => [reading.meal.id, avoided]) : result;

  it("by id: every meal asked for, placeholders too, whatever the preferences; the read's filter and aversions apply", async () => {
    const { useCase, queries } = read(person(['pork', 'vegan'], [9]));
    const byIds = { userId: 'ann', mealIds: [1, 2, 3, 4, 99], all: false, hideAvoided: false };
    const answer = await useCase.execute({ ...byIds, selection: defaultMenuSelection });
    expect(shown(answer)).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
    ]);
    expect(answer.ok && answer.value.unknownIds).toEqual([99]);
    expect(queries).toEqual([{ userId: 'ann', mealIds: [1, 2, 3, 4, 99] }]);
    const filtered = await useCase.execute({
      ...byIds,
      selection: selection({ without: ['milk'] }),
      hideAvoided: true,
    });
    expect(shown(filtered)).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
  });

  it("every canteen's day: the preferences apply unless all, placeholders stay out, avoided dishes marked or hidden", async () => {
    const { useCase, queries } = read(person(['pork'], [9]));
    const page = { userId: 'ann', servedOn: '2026-03-10', after: null, selection: defaultMenuSelection };
    expect(shown(await useCase.execute({ ...page, all: false, hideAvoided: false }))).toEqual([
      [2, false],
      [4, true],
    ]);
    expect(shown(await useCase.execute({ ...page, all: true, hideAvoided: true }))).toEqual([
      [1, false],
      [2, false],
    ]);
    expect(queries[0]).toEqual({ userId: 'ann', servedOn: '2026-03-10', after: null });
  });
});

describe('GetPersonalizedUpcoming', () => {
  it('applies the preferences unless all, and marks or hides the servings of avoided dishes', async () => {
    const asOf = new Date('2026-03-10T12:00:00Z');
    const servings = day.map((meal) => ({ date: '2026-03-11', reading: meal }));
    const asked: unknown[] = [];
    const useCase = new GetPersonalizedUpcoming({
      getUpcomingFavourites: {
        execute: async (query) => {
          asked.push(query);
          return { servings, truncated: true, asOf };
        },
      },
      getPreferences: { execute: async () => person(['vegan'], [9]) },
    });
    const ids = (upcoming: Awaited<ReturnType<GetPersonalizedUpcoming['execute']>>) =>
      upcoming.servings.map((serving) => [serving.reading.meal.id, serving.avoided]);

    const seen = await useCase.execute({
      userId: 'ann',
      selection: defaultMenuSelection,
      all: false,
      hideAvoided: false,
    });
    expect(ids(seen)).toEqual([
      [1, false],
      [4, true],
    ]);
    expect(seen).toMatchObject({ truncated: true, asOf });
    const all = await useCase.execute({
      userId: 'ann',
      days: 3,
      selection: defaultMenuSelection,
      all: true,
      hideAvoided: true,
    });
    expect(ids(all)).toEqual([
      [1, false],
      [2, false],
    ]);
    expect(asked).toEqual([{ userId: 'ann' }, { userId: 'ann', days: 3 }]);
  });
});
