import { describe, expect, it } from 'vitest';
import {
  accept,
  defaultMenuSelection,
  defaultRankingSettings,
  GetRanking,
  menuSelectionOf,
  rankingSelectionOf,
  rankItems,
  refuse,
  shownScoreOf,
  type DetailedMeal,
  type LabelCode,
  type MenuDays,
  type RankingOptions,
} from '../src/index.js';

const days: MenuDays = { canteenId: 'mensa', from: '2026-03-01', to: '2026-03-10' };

describe('RankingSelection', () => {
  it('ranks the meals by rating unless asked otherwise, placeholders left out', () => {
    expect(rankingSelectionOf({ days })).toEqual(
      accept({ scope: 'meals', by: 'rating', days, meals: defaultMenuSelection }),
    );
    expect(rankingSelectionOf({ scope: 'meals', by: 'marks', days })).toMatchObject({ value: { by: 'marks' } });
  });

  it('ranks dishes over every serving: a read naming a day is refused', () => {
    expect(rankingSelectionOf({ scope: 'dishes', canteenId: 'mensa', namesDays: false })).toEqual(
      accept({ scope: 'dishes', by: 'rating', canteenId: 'mensa' }),
    );
    expect(rankingSelectionOf({ scope: 'dishes', by: 'marks', canteenId: 'mensa', namesDays: true })).toEqual({
      ok: false,
      problem: 'dishes_take_no_days',
    });
  });

  it('shows no score for an item nobody rated, and the score of one rated once', () => {
    const [rated, unrated] = rankItems([
      { item: 'rated', histogram: [0, 0, 0, 0, 1] },
      { item: 'unrated', histogram: [0, 0, 0, 0, 0] },
    ]);
    expect(shownScoreOf(unrated!)).toBeNull();
    expect(shownScoreOf(rated!)).toBe(rated!.score);
    expect(rated!.score).toBeGreaterThan(0);
  });
});

describe('GetRanking', () => {
  const meal = (labels: LabelCode[]) => ({ labels }) as unknown as DetailedMeal;
  function ranking(settings = defaultRankingSettings) {
    const asked: (RankingOptions & object)[] = [];
    const useCase = new GetRanking({
      rankMeals: {
        execute: async (query) => {
          asked.push(query);
          return accept({ items: [], asOf: new Date(0) });
        },
      },
      rankDishes: {
        execute: async (query) => {
          asked.push(query);
          return query.canteenId === 'mensa' ? accept({ items: [], asOf: new Date(0) }) : refuse('canteen_not_found');
        },
      },
      settings,
    });
    return { useCase, asked };
  }

  it("ranks only the meals the menu selection shows, with the service's settings", async () => {
    const { useCase, asked } = ranking();
    const vegan = menuSelectionOf({ only: ['vegan'] });
    if (!vegan.ok) throw new Error('vegan is a label');
    const answer = await useCase.execute({ scope: 'meals', by: 'marks', days, meals: vegan.value });
    expect(answer).toEqual(accept({ scope: 'meals', by: 'marks', items: [] }));
    const [query] = asked;
    expect(query).toMatchObject({ ...days, by: 'marks', settings: defaultRankingSettings });
    expect(query!.keep!(meal(['vegan']))).toBe(true);
    expect(query!.keep!(meal(['milk']))).toBe(false);

    await useCase.execute({ scope: 'meals', by: 'rating', days, meals: defaultMenuSelection });
    expect(asked[1]!.keep!(meal(['placeholder']))).toBe(false);
    expect(asked[1]!.keep!(meal([]))).toBe(true);
  });

  it('ranks dishes, and answers the refusal of an unknown canteen', async () => {
    const { useCase } = ranking();
    expect(await useCase.execute({ scope: 'dishes', by: 'rating', canteenId: 'mensa' })).toEqual(
      accept({ scope: 'dishes', by: 'rating', items: [] }),
    );
    expect(await useCase.execute({ scope: 'dishes', by: 'rating', canteenId: 'other' })).toEqual(
      refuse('canteen_not_found'),
    );
  });

  it('refuses settings that make no ranking at its start', () => {
    expect(() => ranking({ ...defaultRankingSettings, z: -1 })).toThrow(/^rankingSettings: /);
  });
});
