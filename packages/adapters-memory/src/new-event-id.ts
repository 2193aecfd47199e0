import { eventIdOf } from '@canteen-meals/domain';

/** Web Crypto's, a global in Node >= 19 and in browsers: this package names no runtime's types, so it declares it. */
declare const crypto: { randomUUID(): string };

/** A new event id, `evt_` and a random UUID's hex. */
export function newEventId(): string {
  return eventIdOf(crypto.randomUUID());
}
