import { webhookDisableAfterMs } from '@canteen-meals/domain';
import type { SendOutcome } from '@canteen-meals/domain/ports';
import { describe, expect, it } from 'vitest';
import { day, hour, webhookWorld } from './support/webhook-world.js';

const failure: SendOutcome = { delivered: false, status: 500, error: 'HTTP 500' };

describe('DeliverWebhooks: one pass of the worker', () => {
  it('sends each recorded event once to each endpoint subscribed to its type, and then has nothing left', async () => {
    const world = webhookWorld();
    await world.endpoint('menus', ['menu.published']);
    await world.endpoint('withdrawals', ['meal.withdrawn']);
    await world.publishMenu();
    await world.publishMenu();

    const pass = await world.deliver();

    expect(pass).toMatchObject({ fannedOut: 2, delivered: 2, failed: 0, nextRunAt: null });
    expect(world.attempts.map(({ webhookId, event }) => [webhookId, event.type])).toEqual([
      ['menus', 'menu.published'],
      ['menus', 'menu.published'],
    ]);
    expect(new Set(world.attempts.map(({ event }) => event.id)).size).toBe(2);
    expect(await world.deliver()).toMatchObject({ fannedOut: 0, delivered: 0, failed: 0, nextRunAt: null });
    expect(world.attempts).toHaveLength(2);
  });

  it('retries a failed attempt after the base delay, to the millisecond, with the same event id', async () => {
    const world = webhookWorld();
    await world.endpoint('menus');
    await world.publishMenu();
    world.answer(failure);
    const firstAt = world.clock.now();

    const failed = await world.deliver();

    expect(failed).toMatchObject({ delivered: 0, failed: 1, nextRunAt: new Date(firstAt.getTime() + 30_000) });
    const log = await world.useCases.listDeliveries.execute({ webhookId: 'menus', limit: 10, after: null });
    expect(log).toMatchObject({
      ok: true,
      value: {
        deliveries: [
          { state: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500', nextAttemptAt: failed.nextRunAt },
        ],
      },
    });

    world.clock.advance(30_000 - 1);
    expect(await world.deliver()).toMatchObject({ delivered: 0, failed: 0 });
    world.clock.advance(1);
    world.answer({ delivered: true, status: 204 });
    expect(await world.deliver()).toMatchObject({ delivered: 1, nextRunAt: null });

    expect(world.attempts).toHaveLength(2);
    expect(world.attempts[1]!.event.id).toBe(world.attempts[0]!.event.id);
    const after = await world.useCases.listDeliveries.execute({ webhookId: 'menus', limit: 10, after: null });
    expect(after).toMatchObject({
      ok: true,
      value: {
        deliveries: [{ state: 'delivered', attempts: 2, lastStatus: 204, lastError: null, nextAttemptAt: null }],
      },
    });
    expect(await world.useCases.getWebhook.execute('menus')).toMatchObject({
      ok: true,
      value: { failingSince: null, disabledAt: null },
    });
  });

  it('gives a delivery up after 3 days of failures: 21 attempts with the default base, then failed', async () => {
    const world = webhookWorld();
    await world.endpoint('menus');
    await world.publishMenu();
    world.answer(failure);
    const firstAt = world.clock.now().getTime();

    for (let pass = await world.deliver(); pass.nextRunAt !== null; pass = await world.deliver())
      world.clock.set(pass.nextRunAt);

    expect(world.attempts).toHaveLength(21);
    expect(world.clock.now().getTime() - firstAt).toBe(68 * hour + 31.5 * 60_000);
    const log = await world.useCases.listDeliveries.execute({ webhookId: 'menus', limit: 10, after: null });
    expect(log).toMatchObject({
      ok: true,
      value: { deliveries: [{ state: 'failed', attempts: 21, nextAttemptAt: null }] },
    });
    // One delivery's retries end before its endpoint has failed for 3 days: it stays enabled.
    expect(await world.useCases.getWebhook.execute('menus')).toMatchObject({ ok: true, value: { disabledAt: null } });
  });

  it('disables an endpoint on the first failure 3 days after its failing began, and a PUT enables it again', async () => {
    const world = webhookWorld();
    await world.endpoint('menus');
    await world.publishMenu();
    world.answer(failure);
    const failingSince = world.clock.now().getTime();
    await world.deliver();
    // A second event, two days later, keeps failing past the 3 days.
    world.clock.set(failingSince + 2 * day);
    await world.publishMenu();
    let pass = await world.deliver();
    while (pass.nextRunAt !== null && world.clock.now().getTime() < failingSince + webhookDisableAfterMs) {
      world.clock.set(pass.nextRunAt);
      pass = await world.deliver();
    }

    const disabled = await world.useCases.getWebhook.execute('menus');
    expect(disabled).toMatchObject({
      ok: true,
      value: { failingSince: new Date(failingSince), disabledAt: world.clock.now() },
    });
    // Nothing is due for a disabled endpoint, and new events skip it.
    expect(pass.nextRunAt).toBeNull();
    await world.publishMenu();
    const attemptsWhileDisabled = world.attempts.length;
    world.clock.advance(day);
    expect(await world.deliver()).toMatchObject({ fannedOut: 1, delivered: 0, failed: 0, nextRunAt: null });
    expect(world.attempts).toHaveLength(attemptsWhileDisabled);

    world.answer({ delivered: true, status: 200 });
    await world.endpoint('menus');
    const resumed = await world.deliver();

    // The second event's delivery was still pending (within its 3 days): it goes out now.
    expect(resumed).toMatchObject({ delivered: 1, failed: 0, nextRunAt: null });
    expect(await world.useCases.getWebhook.execute('menus')).toMatchObject({
      ok: true,
      value: { failingSince: null, disabledAt: null },
    });
  });

  it('counts a sender that throws as a failed attempt and tells of it', async () => {
    const told: unknown[] = [];
    const world = webhookWorld({ delivery: { onSenderError: (error) => told.push(error) } });
    await world.endpoint('menus');
    await world.publishMenu();
    world.answer(async () => Promise.reject(new Error('bug')));

    expect(await world.deliver()).toMatchObject({ delivered: 0, failed: 1 });
    expect(told).toEqual([new Error('bug')]);
    const log = await world.useCases.listDeliveries.execute({ webhookId: 'menus', limit: 1, after: null });
    expect(log).toMatchObject({
      ok: true,
      value: {
        deliveries: [{ state: 'pending', lastStatus: null, lastError: 'the delivery failed inside the service' }],
      },
    });
  });

  it('keeps at most `concurrency` attempts under way', async () => {
    const world = webhookWorld({ delivery: { concurrency: 3 } });
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) await world.endpoint(id);
    await world.publishMenu();
    let underWay = 0;
    let most = 0;
    world.answer(async () => {
      underWay += 1;
      most = Math.max(most, underWay);
      await new Promise((resolve) => setImmediate(resolve));
      underWay -= 1;
      return { delivered: true, status: 200 };
    });

    expect(await world.deliver()).toMatchObject({ delivered: 7 });
    expect(most).toBe(3);
  });

  it('stops a pass at its bound of attempts and asks to run again at once', async () => {
    const world = webhookWorld({ delivery: { maxAttempts: 2, concurrency: 2 } });
    for (const id of ['a', 'b', 'c']) await world.endpoint(id);
    await world.publishMenu();

    const first = await world.useCases.deliverWebhooks.execute();
    expect(first).toMatchObject({ delivered: 2, nextRunAt: world.clock.now() });
    expect(await world.useCases.deliverWebhooks.execute()).toMatchObject({ delivered: 1, nextRunAt: null });
  });

  it('fans out in bounded batches: a pass at the bound asks to run again at once', async () => {
    const world = webhookWorld({ delivery: { fanOutBatch: 1, maxFanOuts: 2 } });
    await world.endpoint('menus');
    for (let index = 0; index < 3; index += 1) await world.publishMenu();

    expect(await world.useCases.deliverWebhooks.execute()).toMatchObject({
      fannedOut: 2,
      delivered: 2,
      nextRunAt: world.clock.now(),
    });
    expect(await world.useCases.deliverWebhooks.execute()).toMatchObject({
      fannedOut: 1,
      delivered: 1,
      nextRunAt: null,
    });
  });

  it('takes nothing more once its stop signal is raised, and ends when the attempts under way have', async () => {
    const world = webhookWorld({ delivery: { concurrency: 1 } });
    for (const id of ['a', 'b', 'c']) await world.endpoint(id);
    await world.publishMenu();
    const stop = { aborted: false };
    world.answer(async () => {
      stop.aborted = true;
      return { delivered: true, status: 200 };
    });

    expect(await world.useCases.deliverWebhooks.execute(stop)).toMatchObject({ delivered: 1, failed: 0 });
    expect(world.attempts).toHaveLength(1);
    // What it left is due for the next pass (this instance's after a restart, or another's).
    expect(await world.useCases.deliverWebhooks.execute()).toMatchObject({ delivered: 2, nextRunAt: null });
  });

  describe('a receiver that hangs', () => {
    /** `slow`'s 10 deliveries are made before `fast`'s 10: oldest first, they would take every slot. */
    async function slowBeforeFast(world: ReturnType<typeof webhookWorld>) {
      await world.endpoint('slow', ['menu.published']);
      for (let index = 0; index < 10; index += 1) await world.publishMenu();
      await world.adapters.outbox.fanOut(world.clock.now(), 100);
      await world.endpoint('fast', ['menu.published']);
      await world.adapters.webhooks.save(
        { ...(await world.adapters.webhooks.find('slow'))!, events: [] },
        world.clock.now(),
      );
      for (let index = 0; index < 10; index += 1) await world.publishMenu();
      await world.adapters.outbox.fanOut(world.clock.now(), 100);
    }

    /** `slow` answers when the test says (one call ends every attempt under way), `fast` at once. */
    function hangingSlow(world: ReturnType<typeof webhookWorld>) {
      const waiting: ((outcome: SendOutcome) => void)[] = [];
      world.answer((webhook) =>
        webhook.id === 'slow'
          ? new Promise<SendOutcome>((resolve) => waiting.push(resolve))
          : Promise.resolve({ delivered: true, status: 200 }),
      );
      return {
        get hanging() {
          return waiting.length;
        },
        answerAll(outcome: SendOutcome) {
          for (const resolve of waiting.splice(0)) resolve(outcome);
        },
      };
    }

    const timedOut: SendOutcome = {
      delivered: false,
      status: null,
      error: 'no answer within 10000 ms',
      timedOut: true,
    };
    const sentTo = (world: ReturnType<typeof webhookWorld>, id: string) =>
      world.attempts.filter((attempt) => attempt.webhookId === id).length;

    /** Lets the pass run until it waits for nothing but the hanging attempts (the in-memory store never does I/O). */
    async function settle() {
      for (let turn = 0; turn < 200; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    }

    it('holds at most `perEndpoint` slots: the other endpoint gets every delivery while the hanging ones wait', async () => {
      const world = webhookWorld({ delivery: { concurrency: 8, perEndpoint: 2 } });
      await slowBeforeFast(world);
      const slow = hangingSlow(world);

      const pass = world.useCases.deliverWebhooks.execute();
      await settle();

      expect(slow.hanging).toBe(2);
      expect(sentTo(world, 'fast')).toBe(10);
      expect(world.attempts.slice(0, 2).map((attempt) => attempt.webhookId)).toEqual(['slow', 'slow']);
      // Its answers free its slots: the rest of its deliveries go out two at a time, in the same pass.
      for (let round = 0; round < 10 && slow.hanging > 0; round += 1) {
        expect(slow.hanging).toBe(2);
        slow.answerAll({ delivered: true, status: 200 });
        await settle();
      }
      expect(await pass).toMatchObject({ delivered: 20, failed: 0 });
    });

    it('fans out and claims again when woken, while its earlier attempts still hang', async () => {
      const world = webhookWorld({ delivery: { concurrency: 8, perEndpoint: 2 } });
      await world.endpoint('slow', ['menu.published']);
      await world.endpoint('fast', ['menu.published']);
      await world.publishMenu();
      const slow = hangingSlow(world);
      const pass = world.useCases.deliverWebhooks.execute();
      await settle();
      expect(world.attempts.map((attempt) => attempt.webhookId).sort()).toEqual(['fast', 'slow']);

      await world.publishMenu();
      await settle();
      expect(sentTo(world, 'fast')).toBe(1);
      world.useCases.deliverWebhooks.wake();
      await settle();

      expect(sentTo(world, 'fast')).toBe(2);
      expect(slow.hanging).toBe(2);
      slow.answerAll({ delivered: true, status: 200 });
      expect(await pass).toMatchObject({ fannedOut: 2, delivered: 4, failed: 0 });
    });

    it('backs off an endpoint that timed out: no attempt to it until the backoff ends, twice as long after the next', async () => {
      const world = webhookWorld({ delivery: { concurrency: 8, perEndpoint: 2, timeoutBackoffMs: 60_000 } });
      await slowBeforeFast(world);
      const slow = hangingSlow(world);
      const start = world.clock.now().getTime();

      const pass = world.useCases.deliverWebhooks.execute();
      await settle();
      slow.answerAll(timedOut);
      const first = await pass;

      expect(sentTo(world, 'slow')).toBe(2);
      expect(sentTo(world, 'fast')).toBe(10);
      // 8 of `slow`'s deliveries are due now, yet the next pass is due when the backoff ends.
      expect(first.nextRunAt).toEqual(new Date(start + 60_000));
      world.clock.set(start + 60_000 - 1);
      expect(await world.useCases.deliverWebhooks.execute()).toMatchObject({
        delivered: 0,
        failed: 0,
        nextRunAt: new Date(start + 60_000),
      });
      expect(slow.hanging).toBe(0);

      world.clock.set(start + 60_000);
      const second = world.useCases.deliverWebhooks.execute();
      await settle();
      expect(slow.hanging).toBe(2);
      slow.answerAll(timedOut);
      expect((await second).nextRunAt).toEqual(new Date(start + 60_000 + 120_000));

      // An answer (any status) ends the backoff: the rest goes out in the same pass, two at a time.
      world.clock.set(start + 180_000);
      world.answer({ delivered: true, status: 204 });
      expect(await world.useCases.deliverWebhooks.execute()).toMatchObject({ delivered: 10, nextRunAt: null });
    });
  });
});
