import { webhookDisableAfterMs, type SendOutcome } from '@canteen-meals/domain';
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
      value: { deliveries: [{ state: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500', nextAttemptAt: failed.nextRunAt }] },
    });

    world.clock.advance(30_000 - 1);
    expect(await world.deliver()).toMatchObject({ delivered: 0, failed: 0 });
    world.clock.advance(1);
    world.answer({ delivered: true, status: 204 });
    expect(await world.deliver()).toMatchObject({ delivered: 1, nextRunAt: null });

    expect(world.attempts).toHaveLength(2);
    expect(world.attempts[1]!.event.id).toBe(world.attempts[0]!.event.id);
    const after = await world.useCases.listDeliveries.execute({ webhookId: 'menus', limit: 10, after: null });
    expect(after).toMatchObject({ ok: true, value: { deliveries: [{ state: 'delivered', attempts: 2, lastStatus: 204, lastError: null, nextAttemptAt: null }] } });
    expect(await world.useCases.getWebhook.execute('menus')).toMatchObject({ ok: true, value: { failingSince: null, disabledAt: null } });
  });

  it('gives a delivery up after 3 days of failures: 21 attempts with the default base, then failed', async () => {
    const world = webhookWorld();
    await world.endpoint('menus');
    await world.publishMenu();
    world.answer(failure);
    const firstAt = world.clock.now().getTime();

    for (let pass = await world.deliver(); pass.nextRunAt !== null; pass = await world.deliver()) world.clock.set(pass.nextRunAt);

    expect(world.attempts).toHaveLength(21);
    expect(world.clock.now().getTime() - firstAt).toBe(68 * hour + 31.5 * 60_000);
    const log = await world.useCases.listDeliveries.execute({ webhookId: 'menus', limit: 10, after: null });
    expect(log).toMatchObject({ ok: true, value: { deliveries: [{ state: 'failed', attempts: 21, nextAttemptAt: null }] } });
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
    expect(disabled).toMatchObject({ ok: true, value: { failingSince: new Date(failingSince), disabledAt: world.clock.now() } });
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
    expect(await world.useCases.getWebhook.execute('menus')).toMatchObject({ ok: true, value: { failingSince: null, disabledAt: null } });
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
    expect(log).toMatchObject({ ok: true, value: { deliveries: [{ state: 'pending', lastStatus: null, lastError: 'the delivery failed inside the service' }] } });
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

    expect(await world.useCases.deliverWebhooks.execute()).toMatchObject({ fannedOut: 2, delivered: 2, nextRunAt: world.clock.now() });
    expect(await world.useCases.deliverWebhooks.execute()).toMatchObject({ fannedOut: 1, delivered: 1, nextRunAt: null });
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
});
