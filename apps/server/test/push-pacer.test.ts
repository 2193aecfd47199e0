import { describe, expect, it } from 'vitest';
import type { PreferenceRepository } from '@canteen-meals/domain/ports';
import { startPushPacer, yieldingPreferences, type PushPacing } from '../src/push/push-pacer.js';
import type { WorkerTimers } from '../src/webhooks/webhook-worker.js';

// The pace of push messages: a token bucket whose rate yields to a busy event loop. Time and the
// loop's utilization are the test's: ticks run when it fires them.

const pacing: PushPacing = { floorPerSecond: 100, ceilingPerSecond: 400, busyAbove: 0.8, tickMs: 100 };

function harness() {
  const pending: (() => void)[] = [];
  const timers: WorkerTimers = {
    setTimeout: (callback) => {
      pending.push(callback);
      return callback;
    },
    clearTimeout: (handle) => {
      const at = pending.indexOf(handle as () => void);
      if (at >= 0) pending.splice(at, 1);
    },
  };
  const loop = { utilization: 0 };
  const pacer = startPushPacer(pacing, { utilization: () => loop.utilization, timers });
  let granted = 0;
  const ask = (count: number) => {
    for (let index = 0; index < count; index += 1)
      void pacer.acquire().then(() => {
        granted += 1;
      });
  };
  /** Fires the tick that is due, then lets the answers settle. */
  const tick = async () => {
    expect(pending).toHaveLength(1);
    pending.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { pacer, loop, ask, tick, pending, granted: () => granted, settle: () => new Promise((r) => setImmediate(r)) };
}

describe('startPushPacer', () => {
  it('starts at the floor: one tick of messages at once, the rest wait for the ticks', async () => {
    const { ask, settle, granted, pacer } = harness();

    ask(25);
    await settle();

    expect(pacer.rate).toBe(100);
    expect(granted()).toBe(10);
  });

  it('grows by a quarter a tick while the loop has room, up to the ceiling', async () => {
    const { ask, tick, settle, granted, pacer } = harness();
    ask(1000);
    await settle();

    const rates: number[] = [];
    for (let index = 0; index < 8; index += 1) {
      await tick();
      rates.push(pacer.rate);
    }

    expect(rates).toEqual([125, 156.25, 195.3125, 244.140625, 305.17578125, 381.4697265625, 400, 400]);
    // 10 at once, then a tick's worth at each tick's rate, whole messages (the bucket holds at most one tick's):
    // 12.5, 15.6, 19.5, 24.4, 30.5, 38.1, 40, 40.
    expect(granted()).toBe(10 + 12 + 15 + 19 + 24 + 30 + 38 + 40 + 40);
  });

  it('halves while the loop is busier than busyAbove, never below the floor', async () => {
    const { ask, tick, settle, pacer, loop } = harness();
    ask(1000);
    await settle();
    for (let index = 0; index < 8; index += 1) await tick();
    expect(pacer.rate).toBe(400);

    loop.utilization = 0.95;
    const rates: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      await tick();
      rates.push(pacer.rate);
    }

    expect(rates).toEqual([200, 100, 100, 100]);
  });

  it('keeps going at the floor under a loop that stays busy: the floor is what a digest can count on', async () => {
    const { ask, tick, settle, granted, loop } = harness();
    loop.utilization = 1;
    ask(100);
    await settle();

    for (let index = 0; index < 9; index += 1) await tick();

    expect(granted()).toBe(100);
  });

  it('stops ticking after a tick without a message, and starts again at the floor', async () => {
    const { ask, tick, settle, granted, pacer, pending } = harness();
    ask(300);
    await settle();
    while (granted() < 300) await tick();
    expect(pacer.rate).toBeGreaterThan(100);

    // The tick after the last message goes, then one that finds nothing taken since.
    await tick();
    await tick();

    expect(pending).toEqual([]);
    expect(pacer.rate).toBe(100);
    ask(15);
    await settle();
    expect(granted()).toBe(310);
    expect(pending).toHaveLength(1);
  });

  it('lets every waiting message go when stopped, and stops ticking', async () => {
    const { ask, settle, granted, pacer, pending } = harness();
    ask(50);
    await settle();

    pacer.stop();
    await settle();

    expect(granted()).toBe(50);
    expect(pending).toEqual([]);
  });
});

describe('yieldingPreferences', () => {
  it('gives the event loop a turn before each batch read, and answers what the repository answers', async () => {
    const batches: string[][] = [];
    const preferences = {
      preferencesOfUsers: async (userIds: readonly string[]) => {
        batches.push([...userIds]);
        return new Map(userIds.map((userId) => [userId, { filter: { only: [userId], without: [] }, aversions: [] }]));
      },
    } as unknown as PreferenceRepository;
    const yielding = yieldingPreferences(preferences);
    const turns: number[] = [];
    const request = () =>
      setImmediate(() => {
        turns.push(batches.length);
      });

    request();
    const first = await yielding.preferencesOfUsers(['a', 'b']);
    request();
    await yielding.preferencesOfUsers(['c']);

    // Each callback waiting before a batch read (a request, here) ran before that read.
    expect(turns).toEqual([0, 1]);
    expect(batches).toEqual([['a', 'b'], ['c']]);
    expect(first.get('b')).toEqual({ filter: { only: ['b'], without: [] }, aversions: [] });
  });
});
