import { pick } from './random.js';
import type { ProbeRequest } from './processes.js';

/** One request of a scenario's load. */
export interface ScenarioRequest extends ProbeRequest {
  /** What the load counts it as (the mixed load's reads and ratings); unset, it is not counted. */
  readonly kind?: string;
}

/** One kind of load: a stream of requests, each from a random user. */
export interface Scenario {
  readonly name: string;
  /**
   * The status every answer of the load must have: any other counts as a failure. 200, except for the revalidation
   * of the public menu, whose 304 is the point of the scenario.
   */
  readonly expectedStatus: number;
  /**
   * The answer to a first request that means the server has no such route yet: the scenario is skipped with a notice
   * instead of failing the run, so that the bench can be written before the routes it measures.
   */
  readonly missingRoute?: MissingRoute | undefined;
  /**
   * What the reference replays of the server's first answer: `answer`, its status, headers and body (issue 16's
   * scenarios: "the same bytes with the same headers"); `body`, the body alone as JSON, as rate-meal and mark-meal
   * were measured since issue 1, so that their figures and targets keep their meaning.
   */
  readonly reference: 'answer' | 'body';
  /** One request of each route the scenario sends: their first answers are what the reference replays. */
  samples(): readonly ScenarioRequest[];
  nextRequest(): ScenarioRequest;
}

export interface MissingRoute {
  readonly status: number;
  /** The error code of the JSON answer (`{"status":"error","error":{"code":…}}`). */
  readonly code: string;
  /** Why it is missing, for the notice. */
  readonly reason: string;
}

export interface ScenarioUsers {
  /** `Bearer <token>` per user, signed once before the load. */
  readonly authorizations: readonly string[];
  readonly random: () => number;
}

const ratingValues = [1, 2, 3, 4, 5] as const;
/** One request in five deletes the user's rating; the others set it, which re-rates when one is already there. */
const deleteShare = 0.2;
/** The canteen of the fixture's menu: the server's default canteen, named as apps do since issue 14. */
const canteen = 'default';

export function rateMealScenario(name: string, users: ScenarioUsers, mealIds: readonly number[]): Scenario {
  return single(name, 'body', () => {
    const rating = users.random() < deleteShare ? null : pick(users.random, ratingValues);
    return post('/api/v1/rate-meal', pick(users.random, users.authorizations), {
      meal_id: pick(users.random, mealIds),
      rating,
    });
  });
}

export function markMealScenario(name: string, users: ScenarioUsers, mealIds: readonly number[]): Scenario {
  return single(name, 'body', () =>
    post('/api/v1/mark-meal', pick(users.random, users.authorizations), {
      meal_id: pick(users.random, mealIds),
      marked: users.random() < 0.5,
    }),
  );
}

/**
 * The personalized read of one day's menu (GET /api/v1/meals?canteen=&date= with a token), as an app does when it
 * opens: every meal with the user's own marks and ratings. Until issue 16 this scenario was called `menu-read`
 * (without `canteen=`, which names the default canteen all the same): its rows in older reports are this one's.
 */
export function personalizedMenuScenario(name: string, users: ScenarioUsers, day: string): Scenario {
  return single(
    name,
    'answer',
    () => ({
      method: 'GET',
      path: menuPath(day),
      headers: { authorization: pick(users.random, users.authorizations) },
    }),
    { status: 404, code: 'not_found', reason: 'the server has no GET /api/v1/meals?date= route yet (issue 3)' },
  );
}

/**
 * Issue 16's public menu: the same read without a token, the same for everyone and so cacheable (the same URL every
 * time). Before issue 16 the route demands a token: its 401 is the sign that the public menu is not there yet.
 */
export function publicMenuScenario(name: string, day: string): Scenario {
  return single(name, 'answer', () => ({ method: 'GET', path: menuPath(day), headers: {} }), publicMenuMissing);
}

/**
 * The public menu with a label filter (`without=gluten`), as an app asks for what a person can eat. The URL
 * is the cache key: served like the bare menu, and compared with a bare Fastify answering the same bytes.
 */
export function filteredPublicMenuScenario(name: string, day: string): Scenario {
  return single(
    name,
    'answer',
    () => ({ method: 'GET', path: `${menuPath(day)}&without=gluten`, headers: {} }),
    publicMenuMissing,
  );
}

/** The public menu revalidated by a client that holds it: `If-None-Match` with its current etag, answered 304. */
export function publicMenuRevalidationScenario(name: string, day: string, etag: string): Scenario {
  return {
    ...single(
      name,
      'answer',
      () => ({ method: 'GET', path: menuPath(day), headers: { 'if-none-match': etag } }),
      publicMenuMissing,
    ),
    expectedStatus: 304,
  };
}

/** Issue 16's overlay: only the user's own marks and ratings of a day, to lay over the public menu. */
export function overlayScenario(name: string, users: ScenarioUsers, day: string): Scenario {
  return single(
    name,
    'answer',
    () => ({
      method: 'GET',
      path: `/api/v1/me/meals?canteen=${canteen}&date=${day}`,
      headers: { authorization: pick(users.random, users.authorizations) },
    }),
    { status: 404, code: 'not_found', reason: 'the server has no GET /api/v1/me/meals route yet (issue 16)' },
  );
}

/**
 * Issue 16's mixed load: reads, and one request in `ratingShare` a rating. Each request carries its kind, so that the
 * load counts how many of each it sent (`LoadResult.sentByKind`).
 */
export function mixedScenario(
  name: string,
  random: () => number,
  reads: Scenario,
  ratings: Scenario,
  ratingShare: number,
): Scenario {
  if (reads.expectedStatus !== ratings.expectedStatus) throw new Error(`${name}: its parts expect different statuses`);
  const read = () => ({ ...reads.nextRequest(), kind: 'read' });
  const rating = () => ({ ...ratings.nextRequest(), kind: 'rating' });
  return {
    name,
    // The same bytes and headers for both parts: the ratings' answers too, as issue 16 measures the mix.
    reference: 'answer',
    expectedStatus: reads.expectedStatus,
    missingRoute: reads.missingRoute,
    // The read first: where the route is missing, the scenario is skipped before it rates anything.
    samples: () => [read(), rating()],
    nextRequest: () => (random() < ratingShare ? rating() : read()),
  };
}

/**
 * The same 50-meal day through OpenMensa's API v2 (`/api/v2/canteens/{id}/days/{date}/meals`), as OpenMensa
 * apps read a day. The fixture's canteen is the server's default canteen, which a fresh database numbers 1.
 */
export function openMensaDayScenario(name: string, day: string): Scenario {
  return single(
    name,
    'answer',
    () => ({ method: 'GET', path: `/api/v2/canteens/${defaultOpenMensaId}/days/${day}/meals`, headers: {} }),
    openMensaMissing,
  );
}

const defaultOpenMensaId = 1;

const openMensaMissing: MissingRoute = {
  status: 404,
  code: 'not_found',
  reason:
    'GET /api/v2/canteens/1/days/{date}/meals answers 404 not_found: the server has no OpenMensa API v2 yet (issue 25)',
};

const publicMenuMissing: MissingRoute = {
  status: 401,
  code: 'unauthenticated',
  reason: 'GET /api/v1/meals without a token answers 401: the server has no public menu yet (issue 16)',
};

function menuPath(day: string): string {
  return `/api/v1/meals?canteen=${canteen}&date=${day}`;
}

/** A scenario of one route, answered 200. */
function single(
  name: string,
  reference: Scenario['reference'],
  next: () => ScenarioRequest,
  missingRoute?: MissingRoute,
): Scenario {
  return {
    name,
    reference,
    expectedStatus: 200,
    missingRoute,
    samples: () => [next()],
    nextRequest: next,
  };
}

function post(path: string, authorization: string, body: unknown): ScenarioRequest {
  return {
    method: 'POST',
    path,
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}
