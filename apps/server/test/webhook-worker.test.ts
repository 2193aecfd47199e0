import { FixedClock } from '@canteen-meals/adapters-memory';
import { MenuChangeHub, type DeliverWebhooks, type DeliveryPass } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { startWebhookWorker, type WorkerTimers } from '../src/webhooks/webhook-worker.js';

/** Timers the test fires by hand: what is pending, and in how many ms. */
function manualTimers() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  let next = 0;
  const timers: WorkerTimers = {
    setTimeout: (callback, ms) => {
      pending.set(++next, { callback, ms });
      return next;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
  };
  return {
    timers,
    /** The delays of the timers set and not yet fired or cleared. */
    delays: () => [...pending.values()].map(({ ms }) => ms),
    /** Fires every pending timer once. */
    fire: () => {
      const due = [...pending.entries()];
      pending.clear();
      for (const [, { callback }] of due) callback();
    },
  };
}

/** A DeliverWebhooks whose passes the test ends: each call waits for `finish(pass)`. */
function controlledPasses() {
  const calls: ((pass: DeliveryPass) => void)[] = [];
  const wakes: number[] = [];
  const deliverWebhooks = {
    execute: () => new Promise<DeliveryPass>((resolve) => calls.push(resolve)),
    wake: () => wakes.push(calls.length),
  } as unknown as DeliverWebhooks;
  const pass = (nextRunAt: Date | null): DeliveryPass => ({ fannedOut: 0, delivered: 0, failed: 0, nextRunAt });
  return { deliverWebhooks, calls, pass, wakes };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the webhook worker', () => {
  it('runs a pass at start, then waits for the next due delivery or the poll interval, whichever comes first', async () => {
    const clock = new FixedClock('2026-09-01T08:00:00Z');
    const { timers, delays, fire } = manualTimers();
    const { deliverWebhooks, calls, pass } = controlledPasses();
    const worker = startWebhookWorker(deliverWebhooks, {
      pollMs: 5_000,
      clock,
      menuChanges: new MenuChangeHub(),
      timers,
      onError: () => {},
    });

    expect(delays()).toEqual([0]);
    fire();
    expect(calls).toHaveLength(1);
    calls[0]!(pass(new Date(clock.now().getTime() + 1_200)));
    await settle();
    expect(delays()).toEqual([1_200]);

    fire();
    calls[1]!(pass(null));
    await settle();
    expect(delays()).toEqual([5_000]);
    await worker.stop();
    expect(delays()).toEqual([]);
  });

  it('runs a pass after a local menu change (on a timer, not inside the announcing write), not after a remote one', async () => {
    const clock = new FixedClock('2026-09-01T08:00:00Z');
    const hub = new MenuChangeHub();
    const { timers, delays, fire } = manualTimers();
    const { deliverWebhooks, calls, pass } = controlledPasses();
    const worker = startWebhookWorker(deliverWebhooks, {
      pollMs: 5_000,
      clock,
      menuChanges: hub,
      timers,
      onError: () => {},
    });
    fire();
    calls[0]!(pass(null));
    await settle();

    hub.publishRemote({ kind: 'menus' });
    hub.publish({ kind: 'rating', mealId: 1, histogram: [0, 0, 0, 0, 1], dish: null });
    expect(delays()).toEqual([5_000]);
    hub.publish({ kind: 'menus' });
    expect(calls).toHaveLength(1);
    expect(delays()).toEqual([0]);
    fire();
    expect(calls).toHaveLength(2);
    calls[1]!(pass(null));
    await worker.stop();
  });

  it('runs one pass at a time: a change during a pass brings one more pass right after it', async () => {
    const clock = new FixedClock('2026-09-01T08:00:00Z');
    const hub = new MenuChangeHub();
    const { timers, delays, fire } = manualTimers();
    const { deliverWebhooks, calls, pass, wakes } = controlledPasses();
    const worker = startWebhookWorker(deliverWebhooks, {
      pollMs: 5_000,
      clock,
      menuChanges: hub,
      timers,
      onError: () => {},
    });
    fire();

    hub.publish({ kind: 'menus' });
    fire();
    expect(calls).toHaveLength(1);
    // The pass under way is told to look again (it may be waiting for a receiver that hangs).
    expect(wakes).toEqual([1]);
    calls[0]!(pass(null));
    await settle();

    expect(delays()).toEqual([0]);
    fire();
    expect(calls).toHaveLength(2);
    calls[1]!(pass(null));
    await settle();
    expect(delays()).toEqual([5_000]);
    await worker.stop();
  });

  it('reports a failed pass and tries again after the poll interval; stop tells the pass under way to end and waits for it', async () => {
    const clock = new FixedClock('2026-09-01T08:00:00Z');
    const { timers, delays, fire } = manualTimers();
    const errors: unknown[] = [];
    let fail = true;
    let finish: () => void = () => {};
    let signal: AbortSignal | undefined;
    const deliverWebhooks = {
      execute: (given: AbortSignal) =>
        (signal = given) && fail
          ? Promise.reject(new Error('database down'))
          : new Promise<DeliveryPass>(
              (resolve) => (finish = () => resolve({ fannedOut: 0, delivered: 0, failed: 0, nextRunAt: null })),
            ),
      wake: () => {},
    } as unknown as DeliverWebhooks;
    const worker = startWebhookWorker(deliverWebhooks, {
      pollMs: 5_000,
      clock,
      menuChanges: new MenuChangeHub(),
      timers,
      onError: (error) => errors.push(error),
    });

    fire();
    await settle();
    expect(errors).toEqual([new Error('database down')]);
    expect(delays()).toEqual([5_000]);

    fail = false;
    fire();
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    // The pass under way is told to take nothing more.
    expect(signal?.aborted).toBe(true);
    finish();
    await stopping;
    expect(delays()).toEqual([]);
  });
});
