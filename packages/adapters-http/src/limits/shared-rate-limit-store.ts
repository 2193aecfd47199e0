import type { Clock } from '@canteen-meals/domain/ports';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { LocalHitCounter } from './local-hit-counter.js';
import { windowStartOf, type SharedHitCounter } from './shared-hit-counter.js';

export interface SharedRateLimitOptions {
  /** The count every instance shares. */
  readonly counter: SharedHitCounter;
  /** Told once each time the shared count fails and this instance starts counting on its own. */
  readonly onFallback?: (error: Error) => void;
  /** Told once each time the shared count answers again after a fallback. */
  readonly onRecovered?: () => void;
  /** After a failure, how long this instance counts on its own before it asks the shared count again; default 5 s. */
  readonly fallbackMs?: number;
}

type Answer = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * @fastify/rate-limit's store over a shared count, on fixed windows aligned to multiples of the time window (minutes
 * for the per-minute limits) by `clock`. Should the shared count fail, the request is not refused and not let through
 * uncounted: it is counted in this process (LocalHitCounter, same windows) for `fallbackMs`, then the shared count is
 * asked again. A database outage thus weakens the limit to one per instance instead of taking the service down.
 */
export function sharedRateLimitStore(options: SharedRateLimitOptions, clock: Clock): FastifyRateLimitStoreCtor {
  const fallbackMs = options.fallbackMs ?? 5_000;
  const local = new LocalHitCounter();
  // While set, the shared count failed and is not asked before this instant.
  let localUntilMs: number | undefined;

  const count = async (key: string, windowStartMs: number, windowMs: number, nowMs: number): Promise<number> => {
    if (localUntilMs !== undefined && nowMs < localUntilMs) return local.hitNow(key, windowStartMs);
    try {
      const hits = await options.counter.hit(key, windowStartMs, windowMs);
      if (localUntilMs !== undefined) {
        localUntilMs = undefined;
        options.onRecovered?.();
      }
      return hits;
    } catch (error) {
      if (localUntilMs === undefined) options.onFallback?.(error as Error);
      localUntilMs = nowMs + fallbackMs;
      return local.hitNow(key, windowStartMs);
    }
  };

  class SharedStore implements FastifyRateLimitStore {
    incr(key: string, answer: Answer, timeWindow: number): void {
      const nowMs = clock.now().getTime();
      const windowStartMs = windowStartOf(nowMs, timeWindow);
      count(key, windowStartMs, timeWindow, nowMs).then(
        (current) => answer(null, { current, ttl: windowStartMs + timeWindow - nowMs }),
        (error: Error) => answer(error),
      );
    }

    child(): FastifyRateLimitStore {
      return new SharedStore();
    }
  }
  return SharedStore;
}
