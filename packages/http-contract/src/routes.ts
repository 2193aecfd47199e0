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
  getPersonalStates: '/me/meals',
  getUpcoming: '/me/upcoming',
  getRankings: '/rankings',
  listMarkedMeals: '/marked-meals',
  listRatedMeals: '/rated-meals',
  myData: '/me/data',
  myAccess: '/me/access',
  listCanteens: '/canteens',
  getCanteen: '/canteens/:canteen_id',
  saveCanteen: '/admin/canteens/:canteen_id',
  archiveCanteen: '/admin/canteens/:canteen_id',
  listAdminCanteens: '/admin/canteens',
  getDish: '/dishes/:dish_id',
  searchDishes: '/canteens/:canteen_id/dishes',
  searchAllDishes: '/dishes',
  mergeDishes: '/admin/dishes/:dish_id/merge',
  getRatingsReport: '/admin/reports/ratings.csv',
  withdrawMeal: '/admin/meals/:meal_id',
  mealAvailability: '/kitchen/meals/:meal_id/availability',
  listFeeds: '/admin/canteens/:canteen_id/feeds',
  fetchFeed: '/admin/canteens/:canteen_id/feeds/:feed_name/fetch',
  liveStatistics: '/live',
  listWebhooks: '/admin/webhooks',
  webhook: '/admin/webhooks/:webhook_id',
  listDeliveries: '/admin/webhooks/:webhook_id/deliveries',
  setDayClosed: '/admin/canteens/:canteen_id/days/:date',
  openMensaFeed: '/canteens/:canteen_id/openmensa.xml',
  menuCalendar: '/canteens/:canteen_id/menu.ics',
  listLabels: '/labels',
  preferences: '/me/preferences',
  pushStatus: '/push',
  pushSubscriptions: '/me/push-subscriptions',
  testPush: '/me/push-subscriptions/test',
  notificationSettings: '/me/notifications',
  listAversions: '/me/aversions',
  aversion: '/me/aversions/:dish_id',
  audit: '/admin/audit',
  auditExport: '/admin/audit/export',
} as const;

/**
 * A route path with its `:parameters` filled in, each percent-encoded: `fillPath(routePaths.fetchFeed, { canteen_id,
 * feed_name })`.
 */
export function fillPath(path: string, parameters: Readonly<Record<string, number | string>>): string {
  return path.replace(/:(\w+)/g, (placeholder, name: string) =>
    name in parameters ? encodeURIComponent(String(parameters[name])) : placeholder,
  );
}

/** `routePaths.getCanteen` (or another `:canteen_id` path) for one canteen id. */
export function canteenPath(canteenId: string, path: string = routePaths.getCanteen): string {
  return fillPath(path, { canteen_id: canteenId });
}

/** `routePaths.getDish` (or another `:dish_id` path) for one dish id. */
export function dishPath(dishId: number | string, path: string = routePaths.getDish): string {
  return fillPath(path, { dish_id: dishId });
}

/** `routePaths.getMeal` (or another `:meal_id` path) for one meal id. */
export function mealPath(mealId: number | string, path: string = routePaths.getMeal): string {
  return fillPath(path, { meal_id: mealId });
}
