import { isMealsErrorCode, MealsApiError } from './meals-api-error.js';
import { apiPrefix, mealPath, routePaths } from '@canteen-meals/http-contract';
import type {
  MarkMealRequest,
  MarkMealResult,
  MealPage,
  MealsQuery,
  MealsResult,
  MealView,
  PageRequest,
  RateMealRequest,
  RatingStatistics,
  UpsertMealsRequest,
  UpsertMealsResult,
  UserDataErasure,
  UserDataExport,
} from './wire-types.js';

type TokenSource =
  | { readonly token: string; readonly getToken?: never }
  /** Called before every request, so that a token can be refreshed between calls. */
  | { readonly getToken: () => string | Promise<string>; readonly token?: never };

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
  /** Many meals by id (unknown ids come back in `unknown_ids`), or the meals served on one day. */
  getMeals(query: MealsQuery, options?: CallOptions): Promise<MealsResult>;
  /** The caller's marked meals, most recently served first, a page at a time. */
  listMarkedMeals(page?: PageRequest, options?: CallOptions): Promise<MealPage>;
  /** The meals the caller has rated, most recently served first, a page at a time. */
  listRatedMeals(page?: PageRequest, options?: CallOptions): Promise<MealPage>;
  /** Every marking and rating the service holds for the caller. */
  exportMyData(options?: CallOptions): Promise<UserDataExport>;
  /** Erases every marking and rating of the caller; idempotent. */
  eraseMyData(options?: CallOptions): Promise<UserDataErasure>;
}

export { apiPrefix };

export function createMealsClient(options: MealsClientOptions): MealsClient {
  const fetch = options.fetch ?? globalThis.fetch;
  const base = String(options.baseUrl).replace(/\/+$/, '') + apiPrefix;
  const tokenOf = async () => (options.getToken === undefined ? options.token : await options.getToken());

  async function call<T>(method: string, path: string, body: unknown, { signal }: CallOptions = {}): Promise<T> {
    const url = base + path;
    const headers: Record<string, string> = { authorization: `Bearer ${await tokenOf()}`, accept: 'application/json' };
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
    return answerOf<T>(method, url, response);
  }

  return {
    markMeal: (request, callOptions) => call('POST', routePaths.markMeal, request, callOptions),
    rateMeal: (request, callOptions) => call('POST', routePaths.rateMeal, request, callOptions),
    upsertMeals: (request, callOptions) => call('PUT', routePaths.upsertMeals, request, callOptions),
    getMeal: (mealId, callOptions) => call('GET', mealPath(mealId), undefined, callOptions),
    getMeals: (query, callOptions) => call('GET', `${routePaths.getMeals}${queryString(mealsQueryParameters(query))}`, undefined, callOptions),
    listMarkedMeals: (page, callOptions) => call('GET', `${routePaths.listMarkedMeals}${pageQuery(page)}`, undefined, callOptions),
    listRatedMeals: (page, callOptions) => call('GET', `${routePaths.listRatedMeals}${pageQuery(page)}`, undefined, callOptions),
    exportMyData: (callOptions) => call('GET', routePaths.myData, undefined, callOptions),
    eraseMyData: (callOptions) => call('DELETE', routePaths.myData, undefined, callOptions),
  };
}

function mealsQueryParameters(query: MealsQuery): Record<string, string> {
  return query.ids === undefined ? { date: query.date } : { ids: query.ids.join(',') };
}

function pageQuery(page: PageRequest = {}): string {
  return queryString({
    ...(page.limit === undefined ? {} : { limit: String(page.limit) }),
    ...(page.cursor === undefined ? {} : { cursor: page.cursor }),
  });
}

function queryString(parameters: Record<string, string>): string {
  const query = new URLSearchParams(parameters).toString();
  return query === '' ? '' : `?${query}`;
}

/** The envelope's data, or the envelope's error thrown; anything else is an unexpected response. */
async function answerOf<T>(method: string, url: string, response: Response): Promise<T> {
  const text = await response.text();
  const envelope = parseJson(text) as { status?: unknown; data?: unknown; error?: { code?: unknown; message?: unknown } };
  if (response.ok && envelope?.status === 'success' && 'data' in envelope) return envelope.data as T;
  if (!response.ok && envelope?.status === 'error' && isMealsErrorCode(envelope.error?.code)) {
    const message = typeof envelope.error.message === 'string' ? envelope.error.message : envelope.error.code;
    throw new MealsApiError(response.status, envelope.error.code, message, 'envelope');
  }
  const contentType = response.headers.get('content-type') ?? 'no content type';
  throw new MealsApiError(
    response.status,
    'internal_error',
    `${method} ${url} answered ${response.status} (${contentType}) without the service's envelope: ${text.slice(0, 200)}`,
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
