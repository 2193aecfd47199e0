import { performance } from 'node:perf_hooks';
import type { PreferenceRepository } from '@canteen-meals/domain/ports';
import type { WorkerTimers } from '../webhooks/webhook-worker.js';

/**
 * How fast push messages go out of one instance. Sending is background work beside the requests the event loop
 * serves: each message still costs the loop its HTTP exchange with the push service and its outbox write (the
 * encryption is in a thread of its own). So the rate follows the loop: it halves, down to `floorPerSecond`, while the
 * loop is busier than `busyAbove`, and grows by a quarter, up to `ceilingPerSecond`, while it is not.
 */
export interface PushPacing {
  /** What the rate never falls below: 10,000 digests in 40 s, within the 60 s of issue 41 even on a busy loop. */
  readonly floorPerSecond: number;
  readonly ceilingPerSecond: number;
  /** The event loop's utilization (the share of time it ran code) above which the rate yields. */
  readonly busyAbove: number;
  /** How often the rate is set and tokens are handed out. */
  readonly tickMs: number;
}

export const defaultPushPacing: PushPacing = {
  floorPerSecond: 250,
  ceilingPerSecond: 2_000,
  busyAbove: 0.8,
  tickMs: 100,
};

export interface PushPacer {
  /** Resolves when a message may go (first come, first served). */
  acquire(): Promise<void>;
  /** Messages per second now. */
  readonly rate: number;
  /** Ends the ticks; whoever waits is let go. */
  stop(): void;
}

const realTimers: WorkerTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The event loop's utilization since the last call (Node's performance.eventLoopUtilization). */
export function eventLoopUtilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const since = performance.eventLoopUtilization(now, last);
    last = now;
    return since.utilization;
  };
}

/**
 * A token bucket whose rate yields to the event loop (see PushPacing): a tick every `tickMs` while messages go, none
 * once a tick passed without one. It starts at the floor (and again after a tick without a message): a digest's first
 * messages wait for the loop to show it has room. The bucket holds one tick's messages.
 */
export function startPushPacer(
  pacing: PushPacing = defaultPushPacing,
  options: { readonly utilization?: () => number; readonly timers?: WorkerTimers } = {},
): PushPacer {
  const utilization = options.utilization ?? eventLoopUtilization();
  const timers = options.timers ?? realTimers;
  const perTick = () => Math.max(1, (rate * pacing.tickMs) / 1000);
  let rate = pacing.floorPerSecond;
  let tokens = perTick();
  let taken = false;
  const waiting: (() => void)[] = [];
  let timer: unknown = null;
  let stopped = false;

  const hand = () => {
    while (waiting.length > 0 && tokens >= 1) {
      tokens -= 1;
      taken = true;
      waiting.shift()!();
    }
  };

  const tick = () => {
    timer = null;
    const busy = utilization() > pacing.busyAbove;
    if (waiting.length === 0 && !taken) {
      // A tick without a message: idle; the next run starts again at the floor, without ticks meanwhile.
      rate = pacing.floorPerSecond;
      tokens = perTick();
      return;
    }
    taken = false;
    rate = busy ? Math.max(pacing.floorPerSecond, rate / 2) : Math.min(pacing.ceilingPerSecond, rate * 1.25);
    // At most one tick's messages at once: what went unused is not saved up into a burst.
    tokens = Math.min(perTick(), tokens + perTick());
    hand();
    schedule();
  };

  const schedule = () => {
    if (timer === null && !stopped) timer = timers.setTimeout(tick, pacing.tickMs);
  };

  return {
    acquire: () => {
      if (stopped) return Promise.resolve();
      if (waiting.length === 0 && tokens >= 1) {
        tokens -= 1;
        taken = true;
        schedule();
        return Promise.resolve();
      }
      schedule();
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    get rate() {
      return rate;
    },
    stop: () => {
      stopped = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

/**
 * The preference reads of the push notices, each after a turn of the event loop: a digest of 10,000 people reads their
 * preferences in batches (RunPushDigests: 500 a read), each answered at once by SQLite; without a turn between them,
 * the requests that come in meanwhile wait for the whole digest to be written. The other methods, single reads
 * included (no push use case makes them), are the repository's own.
 */
export function yieldingPreferences(preferences: PreferenceRepository): PreferenceRepository {
  return {
    preferencesOf: (userId) => preferences.preferencesOf(userId),
    preferencesOfUsers: async (userIds) => {
      await new Promise((resolve) => setImmediate(resolve));
      return preferences.preferencesOfUsers(userIds);
    },
    saveFilter: (userId, filter) => preferences.saveFilter(userId, filter),
    avoid: (userId, dishId, at) => preferences.avoid(userId, dishId, at),
    stopAvoiding: (userId, dishId) => preferences.stopAvoiding(userId, dishId),
    eraseAll: (userId) => preferences.eraseAll(userId),
  };
}
