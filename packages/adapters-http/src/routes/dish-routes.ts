import {
  defaultPageSize,
  getDishRefusals,
  isMealId,
  isNoLabelFilter,
  labelFilterKey,
  mergeDishesRefusals,
  searchDishesRefusals,
  withdrawMealRefusals,
  type DishId,
  type GetDish,
  type ListDishServings,
  type MergeDishes,
  type SearchDishes,
  type WithdrawMeal,
} from '@canteen-meals/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { routes } from '@canteen-meals/http-contract';
import { optionalReader } from '../auth/authenticate.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { HttpError } from '../http-error.js';
import { selectionOf, selects, type SelectionQuery } from '../menu/menu-selection.js';
import { requireJsonBody } from '../json-body.js';
import {
  authenticatedRouteErrors,
  jsonBodyErrors,
  publicRouteErrors,
  writeRouteErrors,
} from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { auditActorOf } from '../auth/audit-actor.js';
import { dishDataOf, dishSummaryDataOf } from '../wire-mapping.js';
import { publicCacheControl } from './fresh-answers.js';
import { adminBodyLimit } from './meal-routes.js';
import { defaultMenuCaching, type MenuCachingOptions } from './menu-routes.js';
import { createPageCursors } from './page-cursor.js';
import { varyOn } from '../vary.js';

export interface DishRoutesOptions {
  readonly getDish: GetDish;
  readonly listDishServings: ListDishServings;
  readonly searchDishes: SearchDishes;
  readonly mergeDishes: MergeDishes;
  readonly withdrawMeal: WithdrawMeal;
  readonly cursorSecret?: string | undefined;
}

/**
 * GET /dishes/{dish_id} (token optional), GET /canteens/{canteen_id}/dishes?q= and GET /dishes?q=&canteen= (public).
 */
export const publicDishRoutes: FastifyPluginAsyncTypebox<
  DishRoutesOptions & { readonly menuCaching?: MenuCachingOptions | undefined }
> = async (app, options) => {
  const { getDish, listDishServings, searchDishes } = options;
  const cursors = createPageCursors(options.cursorSecret);
  const cacheControl = publicCacheControl(options.menuCaching ?? defaultMenuCaching);

  serveRoute(
    app,
    routes.getDish,
    {
      errors: [
        ...publicRouteErrors,
        'invalid_token',
        'invalid_request',
        'invalid_cursor',
        ...wireCodesOf(getDishRefusals),
      ],
    },
    async (request, reply) => {
      const reader = optionalReader(request);
      // As the menu: with a token the answer holds the caller's own figures; without, it is the same for everyone.
      varyOn(reply, 'authorization').header('cache-control', reader === null ? cacheControl : 'private, no-store');
      const dishId = Number(request.params.dish_id) as DishId;
      if (!isMealId(dishId)) throw new HttpError('invalid_request', 'The dish id is out of range.');
      const result = await getDish.execute({ dishId, reader });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      // The servings of a dish are a list of their own; an anonymous reader's cursors are bound to no user.
      const list = `dish-${dishId}` as const;
      const user = reader ?? '';
      const { limit, cursor } = request.query;
      const selection = { ...selectionOf(request.query), placeholders: true };
      const page = await listDishServings.execute({
        dishId,
        reader,
        limit: limit === undefined ? defaultPageSize : Number(limit),
        after: cursor === undefined ? null : cursors.decode(list, user, cursor),
      });
      const next = page.next === null ? null : cursors.encode(list, user, page.next);
      // The page is cut before the filter, like every canteen's day: its cursor still names where it ended.
      const servings = page.meals.filter((reading) => selects(selection, reading.meal));
      return { status: 'success' as const, data: dishDataOf(result.value, servings, next) };
    },
  );

  serveRoute(
    app,
    routes.searchDishes,
    { errors: [...publicRouteErrors, 'invalid_request', 'invalid_cursor', ...wireCodesOf(searchDishesRefusals)] },
    async (request, reply) => search(reply, request.params.canteen_id, request.query),
  );

  serveRoute(
    app,
    routes.searchAllDishes,
    { errors: [...publicRouteErrors, 'invalid_request', 'invalid_cursor', ...wireCodesOf(searchDishesRefusals)] },
    async (request, reply) => search(reply, request.query.canteen ?? null, request.query),
  );

  async function search(
    reply: FastifyReply,
    canteenId: string | null,
    query: SelectionQuery & {
      readonly q?: string | undefined;
      readonly limit?: string | undefined;
      readonly cursor?: string | undefined;
    },
  ) {
    const { q = '', limit, cursor } = query;
    const { filter } = selectionOf(query);
    // A cursor is bound to its canteen (or to all of them), its text and its filter: it pages one search only. The
    // scope of a search without a filter is what it was before there were filters, so its cursors stay good.
    const scope = `${canteenId ?? '*'}\n${q}${isNoLabelFilter(filter) ? '' : `\n${labelFilterKey(filter)}`}`;
    const after = cursor === undefined ? null : cursors.decode('search', scope, cursor).mealId;
    const limitOf = limit === undefined ? defaultPageSize : Number(limit);
    const result = await searchDishes.execute({ canteenId, text: q, after, limit: limitOf, filter });
    if (!result.ok) return sendRefusal(reply, result.refusal);
    const { dishes, next } = result.value;
    return {
      status: 'success' as const,
      data: {
        dishes: dishes.map((dish) => ({ ...dishSummaryDataOf(dish), canteen_id: dish.canteenId })),
        next_cursor: next === null ? null : cursors.encode('search', scope, { servedAt: new Date(0), mealId: next }),
      },
    };
  }
};

/** POST /admin/dishes/{dish_id}/merge and DELETE /admin/meals/{meal_id} (scope meals:write). */
export const adminDishRoutes: FastifyPluginAsyncTypebox<DishRoutesOptions> = async (
  app,
  { mergeDishes, withdrawMeal },
) => {
  serveRoute(
    app,
    routes.mergeDishes,
    {
      bodyLimit: adminBodyLimit,
      preValidation: requireJsonBody,
      errors: [
        ...authenticatedRouteErrors,
        ...jsonBodyErrors,
        ...writeRouteErrors,
        'forbidden',
        ...wireCodesOf(mergeDishesRefusals),
      ],
    },
    async (request, reply) => {
      const target = Number(request.params.dish_id);
      if (!isMealId(target)) throw new HttpError('invalid_request', 'The dish id is out of range.');
      const result = await mergeDishes.execute({ target, from: request.body.from, by: auditActorOf(request) });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return { status: 'success' as const, data: dishDataOf(result.value.dish, [], null) };
    },
  );

  serveRoute(
    app,
    routes.withdrawMeal,
    {
      errors: [
        ...authenticatedRouteErrors,
        ...writeRouteErrors,
        'forbidden',
        'invalid_request',
        ...wireCodesOf(withdrawMealRefusals),
      ],
    },
    async (request, reply) => {
      const mealId = Number(request.params.meal_id);
      if (!isMealId(mealId)) throw new HttpError('invalid_request', 'The meal id is out of range.');
      const result = await withdrawMeal.execute({ mealId, by: auditActorOf(request) });
      if (!result.ok) return sendRefusal(reply, result.refusal);
      return {
        status: 'success' as const,
        data: { meal_id: mealId, withdrawn_at: result.value.withdrawnAt.toISOString() },
      };
    },
  );
};
