import type { TSchema } from '@sinclair/typebox';
import { fillPath } from './routes.js';

export type HttpMethod = 'DELETE' | 'GET' | 'POST' | 'PUT';

/**
 * One route of the API, written once: the server registers it (its schemas validate and document the request and
 * the answers) and the client calls it (its method and path, the parameters filled in). The error answers are the
 * server's to add: they follow from its use cases' refusals and its guards, and the client reads every one alike.
 */
export interface RouteContract {
  readonly method: HttpMethod;
  /** Below `apiPrefix`, in Fastify's form (`:canteen_id` a path parameter). */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly tags?: readonly string[];
  /** Answers without a token (a token that is sent may still be read: see the summary). */
  readonly public?: true;
  /** Answers with or without a token: with one, the caller's own fields too. */
  readonly optionalToken?: true;
  readonly params?: TSchema;
  readonly querystring?: TSchema;
  readonly body?: TSchema;
  /** The success answers by HTTP status: a TypeBox schema, or an OpenAPI response object for another media type. */
  readonly responses: Readonly<Record<number, TSchema | OpenApiResponse>>;
}

/** A response documented as it is (`content` by media type), for an answer that is not the JSON envelope. */
export interface OpenApiResponse {
  readonly description: string;
  readonly content: Readonly<Record<string, { readonly schema: TSchema; readonly example?: unknown }>>;
}

/**
 * Checks a route object and keeps its literal types (its path, its schemas) for the server's and client's inference.
 */
export function route<const R extends RouteContract>(contract: R): R {
  return contract;
}

/** The names of a path's `:parameters`: `PathParameterNames<'/canteens/:canteen_id/days/:date'>` is the two names. */
export type PathParameterNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParameterNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values of a path's parameters, by name. */
export type PathParameters<P extends string> = { readonly [Name in PathParameterNames<P>]: number | string };

/** What calling a route needs of it: a route object, or its entry in `endpoints`. */
export interface Endpoint {
  readonly method: HttpMethod;
  readonly path: string;
}

/** What a call fills in: the path's parameters (each one the path names), the query's, and the JSON body. */
export type CallInput<E extends Endpoint> = (PathParameterNames<E['path']> extends never
  ? { readonly params?: undefined }
  : { readonly params: PathParameters<E['path']> }) & {
  /** Sent in this order; an empty query adds no `?`. */
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
};

/** A call of a route: its method, its path below `apiPrefix` with the parameters and the query filled in, its body. */
export interface RouteRequest {
  readonly method: HttpMethod;
  readonly path: string;
  readonly body: unknown;
}

/** The request that calls `endpoint` with `input`: `requestOf(endpoints.getCanteen, { params: { canteen_id } })`. */
export function requestOf<E extends Endpoint>(endpoint: E, input: CallInput<E>): RouteRequest {
  const path = fillPath(endpoint.path, (input.params ?? {}) as Readonly<Record<string, number | string>>);
  const query = new URLSearchParams(input.query ?? {}).toString();
  return { method: endpoint.method, path: query === '' ? path : `${path}?${query}`, body: input.body };
}
