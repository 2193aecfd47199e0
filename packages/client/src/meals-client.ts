import { isMealsErrorCode, MealsApiError } from './meals-api-error.js';
import type {
  MarkMealRequest,
  MarkMealResult,
  RateMealRequest,
  RatingStatistics,
  UpsertMealsRequest,
  UpsertMealsResult,
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
}

export const apiPrefix = '/api/v1';

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
    markMeal: (request, callOptions) => call('POST', '/mark-meal', request, callOptions),
    rateMeal: (request, callOptions) => call('POST', '/rate-meal', request, callOptions),
    upsertMeals: (request, callOptions) => call('PUT', '/admin/meals', request, callOptions),
  };
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
