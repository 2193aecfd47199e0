import { pick } from './random.js';
import type { ProbeRequest } from './processes.js';

/** One kind of load: a stream of requests, each from a random user. */
export interface Scenario {
  readonly name: string;
  /** The route, as the reference answers it: method and path without the query. */
  readonly route: string;
  nextRequest(): ProbeRequest;
}

export interface ScenarioUsers {
  /** `Bearer <token>` per user, signed once before the load. */
  readonly authorizations: readonly string[];
  readonly random: () => number;
}

const ratingValues = [1, 2, 3, 4, 5] as const;
/** One request in five deletes the user's rating; the others set it, which re-rates when one is already there. */
const deleteShare = 0.2;

export function rateMealScenario(name: string, users: ScenarioUsers, mealIds: readonly number[]): Scenario {
  return {
    name,
    route: 'POST /api/v1/rate-meal',
    nextRequest: () => {
      const rating = users.random() < deleteShare ? null : pick(users.random, ratingValues);
      return post('/api/v1/rate-meal', pick(users.random, users.authorizations), {
        meal_id: pick(users.random, mealIds),
        rating,
      });
    },
  };
}

export function markMealScenario(name: string, users: ScenarioUsers, mealIds: readonly number[]): Scenario {
  return {
    name,
    route: 'POST /api/v1/mark-meal',
    nextRequest: () =>
      post('/api/v1/mark-meal', pick(users.random, users.authorizations), {
        meal_id: pick(users.random, mealIds),
        marked: users.random() < 0.5,
      }),
  };
}

/** The batch read of one day's menu (GET /api/v1/meals?date=), as an app does when it opens. */
export function menuReadScenario(name: string, users: ScenarioUsers, day: string): Scenario {
  return {
    name,
    route: 'GET /api/v1/meals',
    nextRequest: () => ({
      method: 'GET',
      path: `/api/v1/meals?date=${day}`,
      headers: { authorization: pick(users.random, users.authorizations) },
    }),
  };
}

function post(path: string, authorization: string, body: unknown): ProbeRequest {
  return {
    method: 'POST',
    path,
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}
