import { isMealsErrorCode, MealsApiError } from './meals-api-error.js';
import { SseParser } from './sse-parser.js';
import { apiPrefix, endpoints, requestOf, type CallInput, type Endpoint } from '@canteen-meals/http-contract';
import type {
  AdminCanteensResult,
  ArchivedCanteen,
  Aversion,
  AversionsResult,
  LabelSelection,
  LabelsResult,
  Preferences,
  PreferencesRequest,
  Canteen,
  CanteensResult,
  DayClosedResult,
  Dish,
  DishSearchRequest,
  DishSearchResult,
  FeedsResult,
  FeedSummary,
  LiveEvent,
  LiveMealStats,
  MergeDishesRequest,
  WithdrawMealResult,
  AvailabilityStatus,
  LiveAvailability,
  LiveSnapshotMeal,
  MealAvailabilityResult,
  SaveCanteenRequest,
  MarkMealRequest,
  MarkMealResult,
  MealPage,
  MealsQuery,
  MealsResult,
  MenuQuery,
  PersonalStatesResult,
  RankingsQuery,
  RankingsResult,
  MealView,
  PageRequest,
  RateMealRequest,
  RatingsReportRequest,
  RatingStatistics,
  UpsertMealsRequest,
  UpsertMealsResult,
  UpcomingRequest,
  UpcomingResult,
  UserDataErasure,
  UserDataExport,
  Access,
  DeletedWebhook,
  DeliveriesResult,
  AuditFilters,
  AuditRequest,
  AuditResult,
  SaveWebhookRequest,
  Webhook,
  WebhooksResult,
  PushStatus,
  PushSubscriptionRequest,
  SavedPushSubscription,
  PushSubscriptionsResult,
  TestPushResult,
  NotificationSettingsRequest,
  NotificationSettings,
} from './wire-types.js';

type TokenSource =
  | { readonly token: string; readonly getToken?: never }
  /** Called before every request, so that a token can be refreshed between calls. */
  | { readonly getToken: () => string | Promise<string>; readonly token?: never }
  /** No token: only the public routes (canteens) answer; every other one answers `unauthenticated`. */
  | { readonly token?: never; readonly getToken?: never };

export type MealsClientOptions = TokenSource & {
  /** Where the service is, e.g. `http://127.0.0.1:3000`; the client adds `/api/v1`. */
  readonly baseUrl: string | URL;
  /** Defaults to the global fetch (Node >= 20, browsers). */
  readonly fetch?: typeof globalThis.fetch;
};

export interface CallOptions {
  readonly signal?: AbortSignal;
}

export interface MealsClient {
  /** Marks (`marked: true`) or unmarks a meal as the caller's favourite. */
  markMeal(request: MarkMealRequest, options?: CallOptions): Promise<MarkMealResult>;
  /** Sets the caller's rating 1..5, or deletes it with `rating: null`; answers the meal's statistics. */
  rateMeal(request: RateMealRequest, options?: CallOptions): Promise<RatingStatistics>;
  /** Inserts or updates meals, all or nothing; the token needs the `meals:write` scope. */
  upsertMeals(request: UpsertMealsRequest, options?: CallOptions): Promise<UpsertMealsResult>;
  /** One meal with its statistics and the caller's marking and rating. */
  getMeal(mealId: number, options?: CallOptions): Promise<MealView>;
  /**
   * Many meals by id (unknown ids come back in `unknown_ids`), or the meals served on some days. A client without a
   * token gets a canteen's days as the public menu: no `marked` nor `rating_personal` (see PublicMealsResult).
   */
  getMeals(query: MealsQuery, options?: CallOptions): Promise<MealsResult>;
  /** The caller's own part of a canteen's menu: the meals of those days they marked or rated. */
  getPersonalStates(query: MenuQuery, options?: CallOptions): Promise<PersonalStatesResult>;
  /**
   * A canteen's meals of some days, or (`scope: 'dishes'`) its dishes, ranked by a score that accounts for the number
   * of votes (unrated items last, with a null score) or by marks (public: no token needed; narrow on `scope`).
   */
  getRankings(query: RankingsQuery, options?: CallOptions): Promise<RankingsResult>;
  /** The caller's marked meals, most recently served first, a page at a time. */
  listMarkedMeals(page?: PageRequest, options?: CallOptions): Promise<MealPage>;
  /** The meals the caller has rated, most recently served first, a page at a time. */
  listRatedMeals(page?: PageRequest, options?: CallOptions): Promise<MealPage>;
  /**
   * The servings in the coming `days` (1 to 14, default 7; today included, on each canteen's clocks) of every dish the
   * caller marked a serving of, in serving order, each with its `date`; at most 500 (`truncated` says when cut).
   */
  getUpcoming(request?: UpcomingRequest, options?: CallOptions): Promise<UpcomingResult>;
  /** The label vocabulary: codes, kinds, parents, German and English names (public). */
  listLabels(options?: CallOptions): Promise<LabelsResult>;
  /** The caller's label filter, applied to their personalized reads. */
  getPreferences(options?: CallOptions): Promise<Preferences>;
  /** Replaces the caller's label filter; an unknown code is refused naming it. */
  savePreferences(request: PreferencesRequest, options?: CallOptions): Promise<Preferences>;
  /** The dishes the caller avoids. */
  listAversions(options?: CallOptions): Promise<AversionsResult>;
  /** Avoid a dish: its servings are marked `avoided` in personalized answers (idempotent). */
  avoidDish(dishId: number, options?: CallOptions): Promise<Aversion>;
  /** No longer avoid a dish (idempotent). */
  stopAvoidingDish(dishId: number, options?: CallOptions): Promise<Aversion>;
  /** Every marking and rating the service holds for the caller. */
  exportMyData(options?: CallOptions): Promise<UserDataExport>;
  /** Who the token names and the scopes it has here (after the identity provider's roles are mapped). */
  getMyAccess(options?: CallOptions): Promise<Access>;
  /** Erases every marking and rating of the caller; idempotent. */
  eraseMyData(options?: CallOptions): Promise<UserDataErasure>;
  /** Every canteen, by id (public: no token needed). */
  listCanteens(options?: CallOptions): Promise<CanteensResult>;
  /** One canteen (public). */
  getCanteen(canteenId: string, options?: CallOptions): Promise<Canteen>;
  /** Creates or replaces a canteen; the token needs the `meals:write` scope. */
  saveCanteen(canteenId: string, request: SaveCanteenRequest, options?: CallOptions): Promise<Canteen>;
  /**
   * Archives a canteen: it leaves every list and its menus answer 404, its meals and ratings are kept, and
   * `saveCanteen` restores it. Archiving it again keeps the first `archived_at`. The token needs `meals:write`.
   */
  archiveCanteen(canteenId: string, options?: CallOptions): Promise<ArchivedCanteen>;
  /**
   * Says by hand that a canteen is closed on a day (`YYYY-MM-DD` on its clocks; its meals still to be served are
   * withdrawn) or, with `closed: false`, that it is open; the token needs the `meals:write` scope.
   */
  setDayClosed(canteenId: string, date: string, closed: boolean, options?: CallOptions): Promise<DayClosedResult>;
  /** Every canteen with its feeds, archived ones too (`archived_at`); the token needs the `meals:write` scope. */
  listAdminCanteens(options?: CallOptions): Promise<AdminCanteensResult>;
  /** A dish over all its servings, with a page of them (token optional: with one, the caller's own figures). */
  getDish(dishId: number, page?: PageRequest, options?: CallOptions): Promise<Dish>;
  /** A canteen's dishes whose names hold `q` (public). */
  searchDishes(canteenId: string, request: DishSearchRequest, options?: CallOptions): Promise<DishSearchResult>;
  /** Merges the `from` dishes into `dishId` (renames); the token needs the `meals:write` scope. */
  mergeDishes(dishId: number, request: MergeDishesRequest, options?: CallOptions): Promise<Dish>;
  /** Withdraws a meal from the menus (a correction); idempotent; the token needs the `meals:write` scope. */
  withdrawMeal(mealId: number, options?: CallOptions): Promise<WithdrawMealResult>;
  /**
   * Says how much of a serving is left; the token needs `meals:kitchen` (the canteen's today only) or `meals:write`
   * (any day). The same status again changes nothing and answers the availability as it stands.
   */
  setMealAvailability(
    mealId: number,
    status: AvailabilityStatus,
    options?: CallOptions,
  ): Promise<MealAvailabilityResult>;
  /** A canteen's feeds with their last fetch and next run; the token needs the `meals:write` scope. */
  listFeeds(canteenId: string, options?: CallOptions): Promise<FeedsResult>;
  /** Fetches and imports one feed now (or waits for the fetch under way); answers its summary. */
  fetchFeed(canteenId: string, feedName: string, options?: CallOptions): Promise<FeedSummary>;
  /**
   * Creates or replaces a webhook endpoint; the token needs the `meals:write` scope. Without `secret`, a new endpoint
   * gets a generated one, in this answer only (keep it); a replaced endpoint keeps its own.
   */
  saveWebhook(webhookId: string, request: SaveWebhookRequest, options?: CallOptions): Promise<Webhook>;
  getWebhook(webhookId: string, options?: CallOptions): Promise<Webhook>;
  listWebhooks(options?: CallOptions): Promise<WebhooksResult>;
  deleteWebhook(webhookId: string, options?: CallOptions): Promise<DeletedWebhook>;
  /** An endpoint's delivery log, newest first, a page at a time. */
  listDeliveries(webhookId: string, page?: PageRequest, options?: CallOptions): Promise<DeliveriesResult>;
  /**
   * The ratings report of a canteen's days `from` to `to` (up to 366) as CSV text: a header row, then one row per meal
   * (RFC 4180, CRLF line ends). The text comes decoded, without the byte order mark the server sends for spreadsheet
   * apps: write `'\uFEFF' + csv` to a file that one should open. The token needs `meals:read-reports` or `meals:write`.
   */
  getRatingsReport(request: RatingsReportRequest, options?: CallOptions): Promise<string>;
  /**
   * The audit trail (who changed what with a staff scope), newest first, filtered; `meals:write` reads every entry,
   * `meals:manage` those of its canteens.
   */
  listAuditEntries(request?: AuditRequest, options?: CallOptions): Promise<AuditResult>;
  /** The audit trail with the same filters as CSV text (without the byte order mark the server sends). */
  exportAuditEntries(filters?: AuditFilters, options?: CallOptions): Promise<string>;
  /**
   * A canteen's day live (`GET /live`, public, no token sent): a `snapshot` first (every meal of the day with its
   * figures), then a `stats` event per meal whose figures changed, and a `snapshot` again whenever the menus change.
   * The stream is opened on the first `next()`; a refusal (unknown canteen, too many streams) rejects it with a
   * MealsApiError. The iteration ends when the server ends the stream (a restart, a slow reader dropped): call again
   * with the last event's `id` as `lastEventId` to get what was missed, or a fresh snapshot. Leaving the loop, or
   * aborting `signal`, closes the stream.
   */
  liveStatistics(request: LiveStatisticsRequest): AsyncIterable<LiveEvent>;
  /** Whether the server sends Web Push, and the VAPID public key to subscribe with (public). */
  getPushStatus(options?: CallOptions): Promise<PushStatus>;
  /** Subscribes the caller's browser (`PushSubscription.toJSON()`); a known endpoint moves to the caller. */
  savePushSubscription(request: PushSubscriptionRequest, options?: CallOptions): Promise<SavedPushSubscription>;
  listPushSubscriptions(options?: CallOptions): Promise<PushSubscriptionsResult>;
  /** Removes the caller's subscription with that endpoint (none: nothing happens). */
  removePushSubscription(endpoint: string, options?: CallOptions): Promise<void>;
  /** Sends "Notifications work" to every subscription of the caller now; answers each outcome. */
  sendTestPush(options?: CallOptions): Promise<TestPushResult>;
  getNotificationSettings(options?: CallOptions): Promise<NotificationSettings>;
  saveNotificationSettings(request: NotificationSettingsRequest, options?: CallOptions): Promise<NotificationSettings>;
}

export interface LiveStatisticsRequest {
  readonly canteen: string;
  /** The day, YYYY-MM-DD. */
  readonly date: string;
  readonly signal?: AbortSignal;
  /** The `id` of the last event received, to resume where it ended. */
  readonly lastEventId?: string;
}

export { apiPrefix };

export function createMealsClient(options: MealsClientOptions): MealsClient {
  const fetch = options.fetch ?? globalThis.fetch;
  const base = String(options.baseUrl).replace(/\/+$/, '') + apiPrefix;
  const tokenOf = async () => (options.getToken === undefined ? options.token : await options.getToken());

  /** Calls a route of the contract: its path's parameters, query and body filled in from `input`. */
  async function call<T, E extends Endpoint = Endpoint>(
    endpoint: E,
    input: CallInput<E>,
    options?: CallOptions,
  ): Promise<T> {
    const { method, path, body } = requestOf(endpoint, input);
    const { url, response } = await send(method, path, body, json, options);
    return answerOf<T>(method, url, response);
  }

  /** A GET whose success is text of `mediaType` (a report), and whose refusals are the usual envelopes. */
  async function callText<E extends Endpoint>(
    endpoint: E,
    input: CallInput<E>,
    mediaType: string,
    options?: CallOptions,
  ): Promise<string> {
    const { method, path, body } = requestOf(endpoint, input);
    const { url, response } = await send(method, path, body, `${mediaType}, ${json}`, options);
    return textAnswerOf(method, url, response, mediaType);
  }

  async function send(method: string, path: string, body: unknown, accept: string, { signal }: CallOptions = {}) {
    const url = base + path;
    const token = await tokenOf();
    const headers: Record<string, string> = { accept };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (error) {
      throw new MealsApiError(0, 'internal_error', `${method} ${url} got no response: ${String(error)}`, 'network', {
        cause: error,
      });
    }
    return { url, response };
  }

  return {
    markMeal: (request, callOptions) => call(endpoints.markMeal, { body: request }, callOptions),
    rateMeal: (request, callOptions) => call(endpoints.rateMeal, { body: request }, callOptions),
    upsertMeals: (request, callOptions) => call(endpoints.upsertMeals, { body: request }, callOptions),
    getMeal: (mealId, callOptions) => call(endpoints.getMeal, { params: { meal_id: mealId } }, callOptions),
    getMeals: (query, callOptions) => call(endpoints.getMeals, { query: mealsQueryParameters(query) }, callOptions),
    getPersonalStates: (query, callOptions) =>
      call(endpoints.getPersonalStates, { query: mealsQueryParameters(query) }, callOptions),
    getRankings: (query, callOptions) =>
      call(endpoints.getRankings, { query: rankingsQueryParameters(query) }, callOptions),
    listMarkedMeals: (page, callOptions) =>
      call(endpoints.listMarkedMeals, { query: pageParameters(page) }, callOptions),
    listRatedMeals: (page, callOptions) => call(endpoints.listRatedMeals, { query: pageParameters(page) }, callOptions),
    getUpcoming: ({ days, ...selection } = {}, callOptions) =>
      call(
        endpoints.getUpcoming,
        { query: { ...(days === undefined ? {} : { days: String(days) }), ...selectionParameters(selection) } },
        callOptions,
      ),
    listLabels: (callOptions) => call(endpoints.listLabels, {}, callOptions),
    getPreferences: (callOptions) => call(endpoints.getPreferences, {}, callOptions),
    savePreferences: (request, callOptions) => call(endpoints.savePreferences, { body: request }, callOptions),
    listAversions: (callOptions) => call(endpoints.listAversions, {}, callOptions),
    avoidDish: (dishId, callOptions) => call(endpoints.avoidDish, { params: { dish_id: dishId } }, callOptions),
    stopAvoidingDish: (dishId, callOptions) =>
      call(endpoints.stopAvoidingDish, { params: { dish_id: dishId } }, callOptions),
    exportMyData: (callOptions) => call(endpoints.exportMyData, {}, callOptions),
    getMyAccess: (callOptions) => call(endpoints.getMyAccess, {}, callOptions),
    eraseMyData: (callOptions) => call(endpoints.eraseMyData, {}, callOptions),
    listCanteens: (callOptions) => call(endpoints.listCanteens, {}, callOptions),
    getCanteen: (canteenId, callOptions) =>
      call(endpoints.getCanteen, { params: { canteen_id: canteenId } }, callOptions),
    saveCanteen: (canteenId, request, callOptions) =>
      call(endpoints.saveCanteen, { params: { canteen_id: canteenId }, body: request }, callOptions),
    archiveCanteen: (canteenId, callOptions) =>
      call(endpoints.archiveCanteen, { params: { canteen_id: canteenId } }, callOptions),
    setDayClosed: (canteenId, date, closed, callOptions) =>
      call(endpoints.setDayClosed, { params: { canteen_id: canteenId, date }, body: { closed } }, callOptions),
    listAdminCanteens: (callOptions) => call(endpoints.listAdminCanteens, {}, callOptions),
    getDish: (dishId, page, callOptions) =>
      call(endpoints.getDish, { params: { dish_id: dishId }, query: pageParameters(page) }, callOptions),
    searchDishes: (canteenId, { q, without, only, ...page }, callOptions) =>
      call(
        endpoints.searchDishes,
        {
          params: { canteen_id: canteenId },
          query: {
            q,
            ...pageParameters(page),
            ...selectionParameters({
              ...(without === undefined ? {} : { without }),
              ...(only === undefined ? {} : { only }),
            }),
          },
        },
        callOptions,
      ),
    mergeDishes: (dishId, request, callOptions) =>
      call(endpoints.mergeDishes, { params: { dish_id: dishId }, body: request }, callOptions),
    withdrawMeal: (mealId, callOptions) => call(endpoints.withdrawMeal, { params: { meal_id: mealId } }, callOptions),
    setMealAvailability: (mealId, status, callOptions) =>
      call(endpoints.setMealAvailability, { params: { meal_id: mealId }, body: { status } }, callOptions),
    listFeeds: (canteenId, callOptions) =>
      call(endpoints.listFeeds, { params: { canteen_id: canteenId } }, callOptions),
    fetchFeed: (canteenId, feedName, callOptions) =>
      call(endpoints.fetchFeed, { params: { canteen_id: canteenId, feed_name: feedName } }, callOptions),
    saveWebhook: (webhookId, request, callOptions) =>
      call(endpoints.saveWebhook, { params: { webhook_id: webhookId }, body: request }, callOptions),
    getWebhook: (webhookId, callOptions) =>
      call(endpoints.getWebhook, { params: { webhook_id: webhookId } }, callOptions),
    listWebhooks: (callOptions) => call(endpoints.listWebhooks, {}, callOptions),
    deleteWebhook: (webhookId, callOptions) =>
      call(endpoints.deleteWebhook, { params: { webhook_id: webhookId } }, callOptions),
    listDeliveries: (webhookId, page, callOptions) =>
      call(endpoints.listDeliveries, { params: { webhook_id: webhookId }, query: pageParameters(page) }, callOptions),
    getRatingsReport: ({ canteen, from, to }, callOptions) =>
      callText(endpoints.getRatingsReport, { query: { canteen, from, to } }, 'text/csv', callOptions),
    listAuditEntries: ({ limit, ...filters } = {}, callOptions) =>
      call(
        endpoints.listAuditEntries,
        { query: { ...definedOnly(filters), ...(limit === undefined ? {} : { limit: String(limit) }) } },
        callOptions,
      ),
    exportAuditEntries: (filters = {}, callOptions) =>
      callText(endpoints.exportAuditEntries, { query: definedOnly(filters) }, 'text/csv', callOptions),
    liveStatistics: (request) => ({ [Symbol.asyncIterator]: () => liveEvents(request) }),
    getPushStatus: (callOptions) => call(endpoints.getPushStatus, {}, callOptions),
    savePushSubscription: (request, callOptions) =>
      call(endpoints.savePushSubscription, { body: request }, callOptions),
    listPushSubscriptions: (callOptions) => call(endpoints.listPushSubscriptions, {}, callOptions),
    removePushSubscription: async (endpoint, callOptions) => {
      const { method, path } = requestOf(endpoints.removePushSubscription, { query: { endpoint } });
      const { url, response } = await send(method, path, undefined, json, callOptions);
      if (response.status !== 204) await answerOf(method, url, response);
    },
    sendTestPush: (callOptions) => call(endpoints.sendTestPush, {}, callOptions),
    getNotificationSettings: (callOptions) => call(endpoints.getNotificationSettings, {}, callOptions),
    saveNotificationSettings: (request, callOptions) =>
      call(endpoints.saveNotificationSettings, { body: request }, callOptions),
  };

  async function* liveEvents({ canteen, date, signal, lastEventId }: LiveStatisticsRequest): AsyncGenerator<LiveEvent> {
    const url = base + requestOf(endpoints.streamLiveStatistics, { query: { canteen, date } }).path;
    // Closes the stream when the loop is left early (the generator's finally) as well as on the caller's signal.
    const abort = new AbortController();
    const stopOnSignal = () => abort.abort(signal?.reason);
    if (signal?.aborted === true) stopOnSignal();
    signal?.addEventListener('abort', stopOnSignal, { once: true });
    try {
      const headers: Record<string, string> = { accept: `${eventStream}, ${json}` };
      if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
      let response: Response;
      try {
        response = await fetch(url, { method: 'GET', headers, signal: abort.signal });
      } catch (error) {
        throw new MealsApiError(0, 'internal_error', `GET ${url} got no response: ${String(error)}`, 'network', {
          cause: error,
        });
      }
      const answered = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!response.ok || answered !== eventStream || response.body === null) {
        throw failureOf(
          'GET',
          url,
          response,
          await response.text(),
          `without ${eventStream} nor the service's envelope`,
        );
      }
      const parser = new SseParser();
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      try {
        for (;;) {
          let chunk: Awaited<ReturnType<typeof reader.read>>;
          try {
            chunk = await reader.read();
          } catch (error) {
            // Aborted by the caller: the iteration just ends.
            if (abort.signal.aborted) return;
            throw new MealsApiError(0, 'internal_error', `GET ${url}: the stream broke: ${String(error)}`, 'network', {
              cause: error,
            });
          }
          const text = chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
          for (const message of parser.push(text)) {
            const event = liveEventOf(message.event, message.id, message.data);
            if (event !== null) yield event;
          }
          if (chunk.done) return;
        }
      } finally {
        await reader.cancel().catch(() => {});
      }
    } finally {
      signal?.removeEventListener('abort', stopOnSignal);
      abort.abort();
    }
  }
}

const eventStream = 'text/event-stream';

/** A typed live event, or null for an event type this client does not know (skipped, for newer servers). */
function liveEventOf(type: string, id: string, data: string): LiveEvent | null {
  switch (type) {
    case 'snapshot':
      return { type, id, meals: (JSON.parse(data) as { meals: LiveSnapshotMeal[] }).meals };
    case 'stats':
      return { type, id, meal: JSON.parse(data) as LiveMealStats };
    case 'availability':
      return { type, id, meal: JSON.parse(data) as LiveAvailability };
    default:
      return null;
  }
}

const json = 'application/json';

function mealsQueryParameters(query: MealsQuery | MenuQuery): Record<string, string> {
  const selection = selectionParameters(query);
  if (query.ids !== undefined) return { ids: query.ids.join(','), ...selection };
  const canteen = query.canteen === undefined ? {} : { canteen: query.canteen };
  if (query.date === undefined) return { ...canteen, from: query.from!, to: query.to!, ...selection };
  const cursor = 'cursor' in query && query.cursor !== undefined ? { cursor: query.cursor } : {};
  return { date: query.date, ...canteen, ...cursor, ...selection };
}

/** The label selection as query parameters; those left out are not sent. */
function selectionParameters(selection: LabelSelection): Record<string, string> {
  return {
    ...(selection.without === undefined || selection.without.length === 0
      ? {}
      : { without: selection.without.join(',') }),
    ...(selection.only === undefined || selection.only.length === 0 ? {} : { only: selection.only.join(',') }),
    ...(selection.placeholders === true ? { placeholders: 'true' } : {}),
    ...(selection.all === true ? { all: 'true' } : {}),
    ...(selection.hide === undefined ? {} : { hide: selection.hide }),
  };
}

function rankingsQueryParameters(query: RankingsQuery): Record<string, string> {
  const by = query.by === undefined ? {} : { by: query.by };
  if (query.scope === 'dishes') return { canteen: query.canteen, scope: 'dishes', ...by };
  const days = query.date === undefined ? { from: query.from!, to: query.to! } : { date: query.date };
  return {
    canteen: query.canteen,
    ...days,
    ...(query.scope === undefined ? {} : { scope: query.scope }),
    ...by,
    ...selectionParameters(query),
  };
}

function pageParameters(page: PageRequest = {}): Record<string, string> {
  return {
    ...(page.limit === undefined ? {} : { limit: String(page.limit) }),
    ...(page.cursor === undefined ? {} : { cursor: page.cursor }),
  };
}

/** The envelope's data, or the envelope's error thrown; anything else is an unexpected response. */
async function answerOf<T>(method: string, url: string, response: Response): Promise<T> {
  const text = await response.text();
  const envelope = parseJson(text) as { status?: unknown; data?: unknown };
  if (response.ok && envelope?.status === 'success' && 'data' in envelope) return envelope.data as T;
  throw failureOf(method, url, response, text, "without the service's envelope");
}

/**
 * The text of a success of `mediaType`, as fetch decodes it (UTF-8, a byte order mark dropped); a refusal's envelope
 * thrown as from any other route; anything else is an unexpected response.
 */
async function textAnswerOf(method: string, url: string, response: Response, mediaType: string): Promise<string> {
  const text = await response.text();
  const answered = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (response.ok && answered === mediaType) return text;
  throw failureOf(method, url, response, text, `without ${mediaType} nor the service's envelope`);
}

/** The error of an answer that is not a success: the envelope's, or an unexpected response's. */
function failureOf(method: string, url: string, response: Response, text: string, what: string): MealsApiError {
  const envelope = parseJson(text) as { status?: unknown; error?: { code?: unknown; message?: unknown } };
  if (!response.ok && envelope?.status === 'error' && isMealsErrorCode(envelope.error?.code)) {
    const message = typeof envelope.error.message === 'string' ? envelope.error.message : envelope.error.code;
    return new MealsApiError(response.status, envelope.error.code, message, 'envelope');
  }
  const contentType = response.headers.get('content-type') ?? 'no content type';
  return new MealsApiError(
    response.status,
    'internal_error',
    `${method} ${url} answered ${response.status} (${contentType}) ${what}: ${text.slice(0, 200)}`,
    'unexpected_response',
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The parameters that are set: an absent filter is no parameter at all. */
function definedOnly<T extends Record<string, string | undefined>>(values: T): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
