import type { CanteenId, DishId, GetDish, ListCanteensWithArchived, LocateMeals, MealId } from '@canteen-meals/domain';

/** Where what a request touches belongs: what the access policy needs to know of a meal, a dish or a canteen id. */
export interface CanteenLocator {
  /** The canteens of the meals that exist among `mealIds`, withdrawn ones and those of an archived canteen included. */
  canteensOfMeals(mealIds: readonly MealId[]): Promise<CanteenId[]>;
  /** The canteens of the dishes that exist among `dishIds`. */
  canteensOfDishes(dishIds: readonly DishId[]): Promise<CanteenId[]>;
  /** Whether a canteen exists and is not archived (`active`), is archived, or does not exist. */
  canteenState(canteenId: CanteenId): Promise<'active' | 'archived' | 'absent'>;
}

/** The locator over the use cases the app serves anyway (read as a reader without a token). */
export function canteenLocatorOver(useCases: {
  readonly locateMeals: LocateMeals;
  readonly getDish: GetDish;
  readonly listCanteensWithArchived: ListCanteensWithArchived;
}): CanteenLocator {
  return {
    canteensOfMeals: (mealIds) => useCases.locateMeals.execute(mealIds),
    async canteensOfDishes(dishIds) {
      const found = await Promise.all(
        [...new Set(dishIds)].map((dishId) => useCases.getDish.execute({ dishId, reader: null })),
      );
      return found.flatMap((result) => (result.ok ? [result.value.dish.canteenId] : []));
    },
    async canteenState(canteenId) {
      const canteen = (await useCases.listCanteensWithArchived.execute()).find((each) => each.id === canteenId);
      if (canteen === undefined) return 'absent';
      return canteen.archivedAt === null ? 'active' : 'archived';
    },
  };
}
