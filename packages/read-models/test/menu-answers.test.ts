import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { createUseCases, type MenuDays, type PersonalState } from '@canteen-meals/domain';
import { MealMother } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';
import { MenuAnswers, personalizedBody } from '../src/index.js';

const now = new Date('2026-03-10T12:00:00.000Z');
const today = '2026-03-10';
const menuOf = (canteenId: string): MenuDays => ({ canteenId, from: today, to: today });

/** MenuAnswers over the real use cases, counting its reads of the database per canteen. */
async function setup(settings: { entries: number; ratingsMaxAgeMs: number; ttlMs: number }) {
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: 'Europe/Berlin' }));
  const clock = new FixedClock(now);
  const useCases = createUseCases(adapters, clock, { start: '11:00', timeZone: 'Europe/Berlin' });
  for (const id of ['north', 'south']) {
    expect(
      await useCases.saveCanteen.execute({
        id,
        name: id,
        timeZone: 'Europe/Berlin',
        city: null,
        address: null,
        coordinates: null,
        feeds: [],
      }),
    ).toMatchObject({ ok: true });
  }
  // Meals 1 (north) and 2 (south) today; meal 3 (north) yesterday is a serving of the same dish as meal 1.
  await useCases.upsertMeals.execute([
    { ...MealMother.servedHoursAgo(now, 1, { id: 1, name: 'Soup' }), canteenId: 'north' },
    { ...MealMother.servedHoursAgo(now, 1, { id: 2, name: 'Stew' }), canteenId: 'south' },
    { ...MealMother.servedDaysAgo(now, 1, { id: 3, name: 'Soup' }), canteenId: 'north' },
  ]);
  const reads: string[] = [];
  const answers = new MenuAnswers(
    (days) => {
      reads.push(days.canteenId);
      return useCases.getPublicMenu.execute(days);
    },
    clock,
    settings,
  );
  useCases.menuChanges.subscribe(answers.onChange);
  const etagOf = async (canteenId: string) => {
    const answer = await answers.answer(menuOf(canteenId));
    if (!answer.ok) throw new Error(answer.refusal.code);
    return answer.value.etag;
  };
  const rate = async (mealId: number, rating: number) =>
    expect(await useCases.rateMeal.execute({ userId: 'alice', mealId, rating: rating as 1 })).toMatchObject({
      ok: true,
    });
  const setAvailability = async (mealId: number, status: 'available' | 'few_left' | 'sold_out') =>
    expect(await useCases.setMealAvailability.execute({ mealId, status, anyDay: false })).toMatchObject({ ok: true });
  return { answers, reads, etagOf, rate, clock, setAvailability };
}

describe('MenuAnswers', () => {
  it('drops the answers showing a meal at once when its availability changes, even where ratings may be served late', async () => {
    const { reads, etagOf, setAvailability, answers } = await setup({
      entries: 10,
      ratingsMaxAgeMs: 60_000,
      ttlMs: 60_000,
    });
    const [north, south] = [await etagOf('north'), await etagOf('south')];

    await setAvailability(1, 'sold_out');

    expect(await etagOf('south')).toBe(south);
    const after = await answers.answer(menuOf('north'));
    expect(after.ok && after.value.etag).not.toBe(north);
    expect(after.ok && after.value.body).toContain('"availability":"sold_out"');
    expect(reads).toEqual(['north', 'south', 'north']);
    // The same status again is no change: the kept answer stays.
    await setAvailability(1, 'sold_out');
    await etagOf('north');
    expect(reads).toEqual(['north', 'south', 'north']);
  });

  it('neither keeps nor shares a read that was under way when an availability changed', async () => {
    const { reads, answers, setAvailability } = await setup({ entries: 10, ratingsMaxAgeMs: 60_000, ttlMs: 60_000 });
    const underWay = answers.answer(menuOf('north'));
    await setAvailability(1, 'few_left');
    const joined = await answers.answer(menuOf('north'));
    await underWay;
    expect(joined.ok && joined.value.body).toContain('"availability":"few_left"');
    await answers.answer(menuOf('north'));
    expect(reads).toEqual(['north', 'north']);
  });

  it('reads a menu again only when a rating changed one of its meals or their dishes', async () => {
    const { reads, etagOf, rate } = await setup({ entries: 10, ratingsMaxAgeMs: 0, ttlMs: 60_000 });
    const [north, south] = [await etagOf('north'), await etagOf('south')];
    await etagOf('north');
    expect(reads).toEqual(['north', 'south']);

    await rate(2, 4); // south's meal: north stays kept
    expect(await etagOf('north')).toBe(north);
    expect(await etagOf('south')).not.toBe(south);
    expect(reads).toEqual(['north', 'south', 'south']);

    await rate(3, 5); // yesterday's serving of north's soup: the dish figures of today's north menu move
    expect(await etagOf('north')).not.toBe(north);
    expect(reads).toEqual(['north', 'south', 'south', 'north']);
  });

  it('keeps at most `entries` answers, the oldest going first, and forgets what it dropped', async () => {
    const { reads, etagOf, rate } = await setup({ entries: 1, ratingsMaxAgeMs: 0, ttlMs: 60_000 });
    await etagOf('north');
    await etagOf('south'); // north goes
    await rate(1, 3); // a rating of a meal of the dropped answer touches nothing kept
    await etagOf('south');
    expect(reads).toEqual(['north', 'south']);
    await etagOf('north');
    expect(reads).toEqual(['north', 'south', 'north']);
    await rate(2, 3); // south was dropped for north: nothing kept shows meal 2
    await etagOf('north');
    expect(reads).toEqual(['north', 'south', 'north']);
  });

  it('shares one read among the reads of a menu that arrive while it runs', async () => {
    const { reads, answers } = await setup({ entries: 10, ratingsMaxAgeMs: 0, ttlMs: 60_000 });
    const answered = await Promise.all([1, 2, 3].map(() => answers.answer(menuOf('north'))));
    expect(reads).toEqual(['north']);
    expect(new Set(answered.map((answer) => (answer.ok ? answer.value.etag : answer.refusal.code))).size).toBe(1);
  });
});

describe('personalizedBody', () => {
  it("is the public answer with each meal's marking and rating, avoided dishes marked or left out, whichever meals they are", async () => {
    const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: 'Europe/Berlin' }));
    const clock = new FixedClock(now);
    const useCases = createUseCases(adapters, clock, { start: '11:00', timeZone: 'Europe/Berlin' });
    await useCases.upsertMeals.execute(
      ['Soup', 'Stew', 'Käsespätzle', 'Salad'].map((name, i) => MealMother.servedHoursAgo(now, 1, { id: i + 1, name })),
    );
    const answers = new MenuAnswers((days) => useCases.getPublicMenu.execute(days), clock, {
      entries: 10,
      ratingsMaxAgeMs: 0,
      ttlMs: 60_000,
    });
    const answer = await answers.answer(menuOf('default'));
    if (!answer.ok) throw new Error(answer.refusal.code);
    const publicMeals = JSON.parse(answer.value.body).data.meals as { meal_id: number; dish_id: number }[];
    expect(publicMeals.map((meal) => meal.meal_id)).toEqual([1, 2, 3, 4]);
    const dishOf = (mealId: number) => publicMeals.find((meal) => meal.meal_id === mealId)!.dish_id;

    const cases: { states: PersonalState[]; avoided: number[]; hide: boolean }[] = [
      { states: [], avoided: [], hide: false },
      { states: [{ mealId: 1, marked: true, personalRating: 4 }], avoided: [], hide: false },
      {
        states: [
          { mealId: 3, marked: false, personalRating: 2 },
          { mealId: 99, marked: true, personalRating: null },
        ],
        avoided: [1],
        hide: false,
      },
      { states: [{ mealId: 2, marked: true, personalRating: null }], avoided: [1, 4], hide: true },
      { states: [{ mealId: 1, marked: true, personalRating: 5 }], avoided: [1], hide: false },
      { states: [], avoided: [1, 2, 3, 4], hide: true },
      { states: [{ mealId: 4, marked: true, personalRating: 1 }], avoided: [3], hide: true },
    ];
    for (const { states, avoided, hide } of cases) {
      const dishIds = new Set(avoided.map(dishOf));
      const body = personalizedBody(answer.value, states, { dishIds, hide });
      const expected = {
        status: 'success',
        data: {
          meals: publicMeals
            .filter((meal) => !(hide && dishIds.has(meal.dish_id)))
            .map((meal) => {
              const state = states.find((own) => own.mealId === meal.meal_id);
              return {
                ...meal,
                marked: state?.marked ?? false,
                rating_personal: state?.personalRating ?? null,
                ...(dishIds.has(meal.dish_id) ? { avoided: true } : {}),
              };
            }),
          unknown_ids: [],
          closed_days: [],
        },
      };
      expect(JSON.parse(body.toString('utf8'))).toEqual(expected);
    }
  });
});
