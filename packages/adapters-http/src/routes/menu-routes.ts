import {
  getMealsRefusals,
  getMenuRefusals,
  type GetCanteenDay,
  type GetMeals,
  type GetPersonalPart,
  GetPersonalizedMeals,
  GetPersonalizedMenu,
  type GetPersonalizedMenuQuery,
  type GetPreferences,
  type GetPublicMenu,
  type MenuChangeHub,
  type MenuPosition,
  type MenuDays,
  type PersonalizedMeal,
  type PersonalState,
  type Result,
  type UserId,
  accept,
} from '@canteen-meals/domain';
import type { Clock } from '@canteen-meals/domain/ports';
import { type MealsQuery, routes } from '@canteen-meals/http-contract';
import {
  MenuAnswers,
  noMenuCache,
  personalizedBody,
  type MenuAnswer,
  type MenuCacheSettings,
} from '@canteen-meals/read-models';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticatedPrincipal, optionalReader, requireAuthentication } from '../auth/authenticate.js';
import { sendRefusal, wireCodesOf } from '../error-mapping.js';
import { HttpError } from '../http-error.js';
import { publicRouteErrors } from '../schemas/error-responses.js';
import { serveRoute } from '../serve-route.js';
import { mealDataOf } from '../wire-mapping.js';
import { type PersonalQuery, selectionOf } from '../menu/menu-selection.js';
import { answerUnlessFresh, publicCacheControl, sendJsonText } from './fresh-answers.js';
import { createPageCursors, type CursorPosition, type PageCursors } from './page-cursor.js';
import { createPrivateTags } from './private-tags.js';
import { localDateOf, mealIdOf, menuDaysOf } from './read-params.js';
import { varyOn } from '../vary.js';

/** How shared caches may keep a public menu answer. */
export interface MenuCachingOptions extends MenuCacheSettings {
  /** `max-age` of a public menu answer, in seconds. */
  readonly maxAgeS: number;
  /** `stale-while-revalidate` of a public menu answer, in seconds. */
  readonly staleWhileRevalidateS: number;
}

/** Without settings: nothing kept in the process, and caches told to keep answers a few seconds. */
export const defaultMenuCaching: MenuCachingOptions = { ...noMenuCache, maxAgeS: 5, staleWhileRevalidateS: 30 };

export interface MenuRoutesOptions {
  readonly getMeals: GetMeals;
  readonly getPublicMenu: GetPublicMenu;
  readonly getPersonalPart: GetPersonalPart;
  /** What `date=today` and `date=tomorrow` are on a canteen's calendar. */
  readonly getCanteenDay: GetCanteenDay;
  /** The reader's label filter and avoided dishes, applied to the personalized reads of every canteen's day. */
  readonly getPreferences: GetPreferences;
  readonly menuChanges: MenuChangeHub;
  readonly clock: Clock;
  readonly menuCaching?: MenuCachingOptions | undefined;
  /** Signs the cursors of every canteen's day (see ReadRoutesOptions) and keys the tags of GET /me/meals. */
  readonly cursorSecret?: string | undefined;
}

const tokenErrors = ['unauthenticated', 'invalid_token'] as const;

/**
 * GET /meals: a canteen's menu for some days is public and cacheable without a token (and personalized and private
 * with one); by ids and every canteen's day need a token. GET /me/meals: the caller's own part of a menu.
 */
export const menuRoutes: FastifyPluginAsyncTypebox<MenuRoutesOptions> = async (app, options) => {
  const { getMeals, getPublicMenu, getPersonalPart, getCanteenDay, getPreferences } = options;
  const caching = options.menuCaching ?? defaultMenuCaching;
  const cursors = createPageCursors(options.cursorSecret);
  const privateTagOf = createPrivateTags(options.cursorSecret);
  const menus = new MenuAnswers((days) => getPublicMenu.execute(days), options.clock, caching);
  // The reader's menu is the kept public menu of their view: the domain decides which, the answers keep them.
  const personalMenus = new GetPersonalizedMenu({ menus, getPersonalPart });
  const personalMeals = new GetPersonalizedMeals({ getMeals, getPreferences });
  const personalMenu = (userId: UserId, days: MenuDays, query: PersonalQuery) =>
    personalMenus.execute(personalMenuQueryOf(userId, days, query));
  const unsubscribe = options.menuChanges.subscribe(menus.onChange);
  app.addHook('onClose', async () => unsubscribe());
  const cacheControl = publicCacheControl(caching);

  serveRoute(
    app,
    routes.getMeals,
    {
      // Reads by ids and of every canteen's day need a token, checked before the query string as on every such route.
      onRequest: function needsTokenUnlessMenu(request, reply, done) {
        const { canteen, ids } = request.query as Partial<MealsQuery>;
        if (request.authenticationFailure !== null || canteen === undefined || ids !== undefined) {
          return requireAuthentication.call(this, request, reply, done);
        }
        done();
      },
      errors: [
        ...publicRouteErrors,
        ...tokenErrors,
        'invalid_request',
        'invalid_cursor',
        ...wireCodesOf(getMealsRefusals),
      ],
    },
    (request, reply) => {
      if (request.principal !== null || request.authenticationFailure !== null) return readMeals(request, reply);
      // The answer depends on the token: no shared cache may give one reader's answer to another.
      varyOn(reply, 'authorization');
      // The common public read, a revalidation above all, from the kept answer in this turn: no promise to wait for.
      const kept = keptPublicAnswer(request.query);
      if (kept === undefined) return readMeals(request, reply);
      reply.header('cache-control', cacheControl).header('etag', kept.etag);
      answerUnlessFresh(request, reply, kept.etag, kept.body);
      return undefined;
    },
  );

  /** The public menu that the query asks for, when kept and servable now; undefined whenever a read is needed. */
  function keptPublicAnswer(query: MealsQuery): MenuAnswer | undefined {
    if (query.date === 'today' || query.date === 'tomorrow' || query.cursor !== undefined) return undefined;
    const days = menuDaysOf(query);
    return days === undefined ? undefined : menus.keptAnswer(days, selectionOf(query));
  }

  async function readMeals(request: FastifyRequest & { readonly query: MealsQuery }, reply: FastifyReply) {
    const reader = optionalReader(request);
    // The answer depends on the token: no shared cache may give one reader's answer to another.
    varyOn(reply, 'authorization');
    const query = await withCalendarDay(getCanteenDay, request.query);
    if (!query.ok) return sendRefusal(reply, query.refusal);
    const days = menuDaysOf(query.value);
    // The onRequest hook demanded a token for these reads.
    if (days === undefined) {
      const { userId } = authenticatedPrincipal(request);
      return readByIdsOrEveryCanteen(personalMeals, cursors, userId, query.value, reply);
    }
    if (request.query.cursor !== undefined) throw new HttpError('invalid_request', 'cursor goes with date alone.');
    if (reader === null) {
      const answer = await menus.answer(days, selectionOf(request.query));
      if (!answer.ok) return sendRefusal(reply, answer.refusal);
      reply.header('cache-control', cacheControl).header('etag', answer.value.etag);
      return answerUnlessFresh(request, reply, answer.value.etag, answer.value.body);
    }
    // The public answer of the reader's selection (kept like any other), then their own part on top of it.
    const personal = await personalMenu(reader, days, request.query);
    if (!personal.ok) return sendRefusal(reply, personal.refusal);
    const { answer, states, aversions } = personal.value;
    reply.header('cache-control', 'private, no-store');
    return sendJsonText(reply, personalizedBody(answer, states, aversions));
  }

  serveRoute(
    app,
    routes.getPersonalStates,
    {
      onRequest: requireAuthentication,
      errors: [...publicRouteErrors, ...tokenErrors, 'invalid_request', ...wireCodesOf(getMenuRefusals)],
    },
    async (request, reply) => {
      const { userId } = authenticatedPrincipal(request);
      varyOn(reply, 'authorization');
      if (request.query.canteen === undefined)
        throw new HttpError('invalid_request', 'missing query parameter "canteen"');
      const query = await withCalendarDay(getCanteenDay, request.query);
      if (!query.ok) return sendRefusal(reply, query.refusal);
      const days = menuDaysOf(query.value)!;
      // The meals of the public menu, as kept: the overlay is about exactly the meals that menu shows.
      const personal = await personalMenu(userId, days, request.query);
      if (!personal.ok) return sendRefusal(reply, personal.refusal);
      const body = personalStatesBody(personal.value.states);
      const etag = privateTagOf(body);
      // Private caches may keep it, but must ask again each time: a marking elsewhere changes it at once.
      reply.header('cache-control', 'private, no-cache').header('etag', etag);
      return answerUnlessFresh(request, reply, etag, body);
    },
  );
};

const daysAheadOf = { today: 0, tomorrow: 1 } as const;

/**
 * The query with `date=today` or `date=tomorrow` made the calendar day it is at the canteen (its time zone, not the
 * server's); a day of every canteen has no one calendar, so those words need `canteen`.
 */
async function withCalendarDay<Q extends { readonly canteen?: string | undefined; readonly date?: string | undefined }>(
  getCanteenDay: GetCanteenDay,
  query: Q,
): Promise<Result<Q, 'canteen_not_found'>> {
  const { date, canteen } = query;
  if (date !== 'today' && date !== 'tomorrow') return accept(query);
  if (canteen === undefined)
    throw new HttpError('invalid_request', `date=${date} needs canteen: it is a day on that canteen's calendar.`);
  const day = await getCanteenDay.execute({ canteenId: canteen, daysAhead: daysAheadOf[date] });
  return day.ok ? accept({ ...query, date: day.value }) : day;
}

function personalStatesBody(states: readonly PersonalState[]): string {
  const meals = states.map(({ mealId, marked, personalRating }) => ({
    meal_id: mealId,
    marked,
    rating_personal: personalRating,
  }));
  return JSON.stringify({ status: 'success', data: { meals } });
}

/** What a personalized read of a canteen's days asks the domain, from its query. */
function personalMenuQueryOf(userId: UserId, days: MenuDays, query: PersonalQuery): GetPersonalizedMenuQuery {
  return {
    userId,
    days,
    selection: selectionOf(query),
    all: query.all === 'true',
    hideAvoided: query.hide === 'avoided',
  };
}

/** A meal of a personalized read on the wire: `avoided` only on the servings of a dish the reader avoids. */
function personalMealDataOf({ reading, avoided }: PersonalizedMeal) {
  return avoided ? { ...mealDataOf(reading), avoided: true } : mealDataOf(reading);
}

/** ?ids= and ?date= without canteen (in pages): personal reads, private. */
async function readByIdsOrEveryCanteen(
  personalMeals: GetPersonalizedMeals,
  cursors: PageCursors,
  userId: string,
  query: MealsQuery,
  reply: FastifyReply,
) {
  // The selection first: an unknown label code is the answer before any other mistake of the query.
  const read = {
    userId,
    selection: selectionOf(query),
    all: query.all === 'true',
    hideAvoided: query.hide === 'avoided',
  };
  const { ids, date, canteen, from, to, cursor } = query;
  const given = [ids, date, from ?? to].filter((value) => value !== undefined).length;
  if (given !== 1) throw new HttpError('invalid_request', 'Give exactly one of: ids, date, or from with to.');
  if (ids !== undefined && canteen !== undefined) {
    throw new HttpError('invalid_request', 'canteen goes with date or from/to, not with ids.');
  }
  if (date === undefined && ids === undefined) {
    throw new HttpError(
      'invalid_request',
      from === undefined || to === undefined ? 'A range needs both from and to.' : 'A range of days needs canteen.',
    );
  }
  if (cursor !== undefined && date === undefined)
    throw new HttpError('invalid_request', 'cursor goes with date alone.');
  reply.header('cache-control', 'private, no-store');
  if (ids !== undefined) {
    const result = await personalMeals.execute({ ...read, mealIds: ids.split(',').map(mealIdOf) });
    if (!result.ok) return sendRefusal(reply, result.refusal);
    const { meals, unknownIds } = result.value;
    return { status: 'success' as const, data: { meals: meals.map(personalMealDataOf), unknown_ids: [...unknownIds] } };
  }
  const servedOn = localDateOf(date!);
  const list = `day-${servedOn}` as const;
  const after = cursor === undefined ? null : menuPositionOf(cursors.decode(list, userId, cursor));
  const result = await personalMeals.execute({ ...read, servedOn, after });
  if (!result.ok) return sendRefusal(reply, result.refusal);
  const { meals, next } = result.value;
  return {
    status: 'success' as const,
    data: {
      meals: meals.map(personalMealDataOf),
      unknown_ids: [],
      next_cursor: next === null ? null : cursors.encode(list, userId, next),
    },
  };
}

/** A cursor of a list in menu order names a place in a day's menu; one without it was not handed out by that list. */
function menuPositionOf(position: CursorPosition): MenuPosition {
  if (position.position === undefined)
    throw new HttpError('invalid_cursor', 'The cursor is not one this list handed out.');
  return { servedAt: position.servedAt, position: position.position, mealId: position.mealId };
}
