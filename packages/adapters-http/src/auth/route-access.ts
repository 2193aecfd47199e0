import { defaultCanteenId, type CanteenId, type DishId, type MealId, type StaffScope } from '@canteen-meals/domain';
import type { FastifyRequest } from 'fastify';
import type { CanteenLocator } from './canteen-locator.js';

/**
 * What an act touches: the canteens it needs the scope at (all of them: a batch is all or nothing), or `every` for an
 * act on no one canteen (the webhooks, creating a canteen), which only a grant for every canteen allows. `scope`, when
 * given, is what the act needs instead of the route's (a PUT of a canteen that does not exist yet creates it).
 */
export interface Touched {
  readonly canteens: readonly CanteenId[] | 'every';
  readonly scope?: StaffScope;
}

/**
 * A staff route's access rule: the scope it needs, and how to find the canteens a request touches. `list`: the route
 * answers a list, which the route itself cuts to the caller's canteens (canteensAllowed); a caller needs the scope
 * somewhere.
 */
export interface RouteAccess {
  readonly scope: StaffScope;
  readonly touches: 'list' | ((request: FastifyRequest, locate: CanteenLocator) => Promise<Touched> | Touched);
}

const every: Touched = { canteens: 'every' };

const field = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;

const canteenParam = (request: FastifyRequest): Touched => {
  const canteenId = field(request.params, 'canteen_id');
  return { canteens: typeof canteenId === 'string' ? [canteenId] : [] };
};

const mealParam = async (request: FastifyRequest, locate: CanteenLocator): Promise<Touched> => {
  const mealId = Number(field(request.params, 'meal_id'));
  return { canteens: Number.isSafeInteger(mealId) ? await locate.canteensOfMeals([mealId as MealId]) : [] };
};

/** A batch of meals: the canteen each names (default: `default`), each closed day's, and where each meal is now. */
const upsertedCanteens = async (request: FastifyRequest, locate: CanteenLocator): Promise<Touched> => {
  const meals = field(request.body, 'meals');
  const days = field(request.body, 'closed_days');
  const named = [...(Array.isArray(meals) ? meals : []), ...(Array.isArray(days) ? days : [])].map((each) => {
    const canteenId = field(each, 'canteen_id');
    return typeof canteenId === 'string' ? canteenId : defaultCanteenId;
  });
  const mealIds = (Array.isArray(meals) ? meals : [])
    .map((meal) => field(meal, 'meal_id'))
    .filter((id): id is MealId => typeof id === 'number');
  // A meal moved to another canteen touches the one it leaves too, withdrawn or not.
  return { canteens: [...new Set([...named, ...(await locate.canteensOfMeals(mealIds))])] };
};

const mergedDishes = async (request: FastifyRequest, locate: CanteenLocator): Promise<Touched> => {
  const from = field(request.body, 'from');
  const dishIds = [Number(field(request.params, 'dish_id')), ...(Array.isArray(from) ? from : [])].filter(
    (id): id is DishId => typeof id === 'number' && Number.isSafeInteger(id),
  );
  return { canteens: [...new Set(await locate.canteensOfDishes(dishIds))] };
};

/**
 * Editing a canteen is its manager's; restoring an archived one needs meals:write there; creating one a grant for every
 * canteen (a grant for a canteen that does not exist grants nothing).
 */
const savedCanteen = async (request: FastifyRequest, locate: CanteenLocator): Promise<Touched> => {
  const touched = canteenParam(request);
  const [canteenId] = touched.canteens;
  if (canteenId === undefined) return touched;
  const state = await locate.canteenState(canteenId);
  if (state === 'absent') return { canteens: 'every', scope: 'meals:write' };
  return state === 'active' ? touched : { ...touched, scope: 'meals:write' };
};

const reportCanteen = (request: FastifyRequest): Touched => {
  const canteenId = field(request.query, 'canteen');
  // Without one the route answers 400: nothing is touched.
  return { canteens: typeof canteenId === 'string' ? [canteenId] : [] };
};

/**
 * Every staff route (under `/admin` and `/kitchen`) by operationId, with the scope it needs and the canteens it
 * touches: the one place that says who may do what; the access policy of the domain decides. A staff route missing
 * here fails the app's start (authorize-staff.ts).
 */
export const staffRouteAccess: Readonly<Record<string, RouteAccess>> = {
  saveCanteen: { scope: 'meals:manage', touches: savedCanteen },
  archiveCanteen: { scope: 'meals:write', touches: canteenParam },
  listAdminCanteens: { scope: 'meals:manage', touches: 'list' },
  listFeeds: { scope: 'meals:manage', touches: canteenParam },
  fetchFeed: { scope: 'meals:manage', touches: canteenParam },
  setDayClosed: { scope: 'meals:manage', touches: canteenParam },
  upsertMeals: { scope: 'meals:manage', touches: upsertedCanteens },
  withdrawMeal: { scope: 'meals:manage', touches: mealParam },
  mergeDishes: { scope: 'meals:manage', touches: mergedDishes },
  setMealAvailability: { scope: 'meals:kitchen', touches: mealParam },
  getRatingsReport: { scope: 'meals:read-reports', touches: reportCanteen },
  saveWebhook: { scope: 'meals:write', touches: () => every },
  listWebhooks: { scope: 'meals:write', touches: () => every },
  getWebhook: { scope: 'meals:write', touches: () => every },
  deleteWebhook: { scope: 'meals:write', touches: () => every },
  listDeliveries: { scope: 'meals:write', touches: () => every },
  // The route cuts the trail to the caller's canteens (a manager's), or answers all of it (meals:write).
  listAuditEntries: { scope: 'meals:manage', touches: 'list' },
  exportAuditEntries: { scope: 'meals:manage', touches: 'list' },
};
