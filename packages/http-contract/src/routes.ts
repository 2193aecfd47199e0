/** Every route of the API lives under this prefix. */
export const apiPrefix = '/api/v1';

/**
 * The paths of the API's routes, below `apiPrefix`, in Fastify's form (`:meal_id` a path parameter). The server
 * registers these and the client calls them, so neither can drift from the other.
 */
export const routePaths = {
  markMeal: '/mark-meal',
  rateMeal: '/rate-meal',
  upsertMeals: '/admin/meals',
  getMeal: '/meals/:meal_id',
  getMeals: '/meals',
  listMarkedMeals: '/marked-meals',
  listRatedMeals: '/rated-meals',
  myData: '/me/data',
} as const;

/** `routePaths.getMeal` for one meal id. */
export function mealPath(mealId: number | string): string {
  return routePaths.getMeal.replace(':meal_id', encodeURIComponent(String(mealId)));
}
