import {
  decideDishMerge,
  decideRatingChange,
  histogramOf,
  type Canteen,
  type DishId,
  type Meal,
  type MealId,
  type RatingValue,
} from '@canteen-meals/domain';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { CreateReadRepositoryFixture } from './read-repository-fixture.js';
import { ratingOpenAt, readAt, sampleMeal } from './sample-meals.js';

const bistro: Canteen = {
  id: 'bistro',
  name: 'Bistro',
  timeZone: 'UTC',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
};
/** Six meals: two servings of one dish, two of dishes of their own, one of the same name in another canteen. */
const meals: readonly Meal[] = [
  sampleMeal(1, { name: 'Soup' }),
  sampleMeal(2, { name: 'soup' }),
  sampleMeal(3, { name: 'Curry' }),
  sampleMeal(4, { name: 'Dal' }),
  sampleMeal(5, { name: 'Pasta' }),
  sampleMeal(6, { name: 'Soup', canteenId: bistro.id }),
];
const users = ['alice', 'bob', 'carol'] as const;

type Action =
  | { readonly kind: 'rate'; readonly user: string; readonly mealId: MealId; readonly rating: RatingValue | null }
  | { readonly kind: 'merge'; readonly target: MealId; readonly source: MealId }
  | { readonly kind: 'withdraw'; readonly mealId: MealId }
  | { readonly kind: 'erase'; readonly user: string };

const mealId = fc.constantFrom(...meals.map((meal) => meal.id));
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('rate' as const),
      user: fc.constantFrom(...users),
      mealId,
      rating: fc.constantFrom(1, 2, 3, 4, 5, null) as fc.Arbitrary<RatingValue | null>,
    }),
  },
  // Merge the dish of one meal into the dish of another (refused across canteens or into itself: nothing changes).
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('merge' as const), target: mealId, source: mealId }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), mealId }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('erase' as const), user: fc.constantFrom(...users) }) },
);

/**
 * For random sequences of ratings, re-ratings, deletions, dish merges, withdrawals and erasures, every meal's and
 * every dish's histogram equals a recount of the ratings held (withdrawn meals' ratings included in their dish).
 */
export function describeHistogramOracleProperty(
  adapterName: string,
  createFixture: CreateReadRepositoryFixture,
  numRuns = 25,
): void {
  it(`keeps every meal's and dish's histogram equal to a recount of the ratings: ${adapterName}`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 40 }), async (actions) => {
        const store = await createFixture();
        try {
          await store.canteens.save(bistro);
          await store.meals.upsertMany(meals);
          /** The model: each meal's ratings by user, which dish each meal belongs to, which meals are withdrawn. */
          const held = new Map<MealId, Map<string, RatingValue>>(meals.map((meal) => [meal.id, new Map()]));
          const dishOf = new Map<MealId, DishId>();
          for (const view of await store.queries.viewsByIds(
            'model',
            meals.map((meal) => meal.id),
            readAt,
          ))
            dishOf.set(view.meal.id, view.dish.id);
          const withdrawn = new Set<MealId>();

          for (const step of actions) {
            if (step.kind === 'rate') {
              const decision = await store.ratings.change(step.user, step.mealId, (snapshot) =>
                decideRatingChange(snapshot, step.rating, ratingOpenAt),
              );
              expect(decision.ok).toBe(!withdrawn.has(step.mealId));
              if (!decision.ok) continue;
              if (step.rating === null) held.get(step.mealId)!.delete(step.user);
              else held.get(step.mealId)!.set(step.user, step.rating);
            } else if (step.kind === 'merge') {
              const [target, source] = [dishOf.get(step.target)!, dishOf.get(step.source)!];
              const merged = await store.dishes.merge(target, [source], (snapshot) =>
                decideDishMerge({ target, from: [source] }, snapshot),
              );
              const sameCanteen = (step.target === 6) === (step.source === 6);
              expect(merged.ok).toBe(target !== source && sameCanteen);
              if (merged.ok) for (const [meal, dish] of dishOf) if (dish === source) dishOf.set(meal, target);
            } else if (step.kind === 'withdraw') {
              await store.meals.withdraw(step.mealId, readAt);
              withdrawn.add(step.mealId);
            } else {
              await store.userData.eraseAll(step.user);
              for (const byUser of held.values()) byUser.delete(step.user);
            }
          }

          const visible = await store.queries.viewsByIds(
            'model',
            meals.map((meal) => meal.id),
            readAt,
          );
          expect(visible.map((view) => view.meal.id).sort()).toEqual(
            meals.map((meal) => meal.id).filter((id) => !withdrawn.has(id)),
          );
          for (const view of visible) {
            expect(view.histogram).toEqual(histogramOf(held.get(view.meal.id)!.values()));
            expect(view.dish.id).toBe(dishOf.get(view.meal.id));
          }
          for (const dishId of new Set(dishOf.values())) {
            const servings = [...dishOf].filter(([, dish]) => dish === dishId).map(([meal]) => meal);
            const expected = histogramOf(servings.flatMap((meal) => [...held.get(meal)!.values()]));
            expect((await store.dishQueries.dish(dishId, null, readAt))?.dish.histogram).toEqual(expected);
          }
        } finally {
          await store.cleanup?.();
        }
      }),
      { numRuns },
    );
  }, 120_000);
}
