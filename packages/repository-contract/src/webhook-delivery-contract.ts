import type { AttemptOutcome } from '@canteen-meals/domain/ports';
import { describe, expect, it } from 'vitest';
import { MealMother } from './meal-mother.js';
import { freshFixturePerTest } from './repository-fixture.js';
import {
  hoursAfter,
  webhookDefinition,
  type CreateWebhookRepositoryFixture,
  type WebhookRepositoryFixture,
} from './webhook-fixture.js';

const savedAt = new Date('2026-03-09T09:00:00.000Z');
const at = new Date('2026-03-09T10:00:00.000Z');
const leaseMs = 30_000;
const ms = (instant: Date, plus: number) => new Date(instant.getTime() + plus);
const failed = (retryAt: Date | null, status: number | null = 500): AttemptOutcome => ({
  kind: 'failed',
  status,
  error: status === null ? 'timed out' : `HTTP ${status}`,
  retryAt,
});

/** Endpoint `hook` subscribed to menu.published, and `count` meals written (one day each) and fanned out at `at`. */
async function withDeliveries(fixture: WebhookRepositoryFixture, count: number): Promise<void> {
  await fixture.webhooks.save(webhookDefinition('hook', { events: ['menu.published'] }), savedAt);
  for (let id = 1; id <= count; id++)
    await fixture.meals.upsertMany([MealMother.servedAt(hoursAfter(at, 24 * id), { id })], undefined, at);
  while ((await fixture.outbox.fanOut(at, 100)) > 0);
}

/** What every WebhookRepository and WebhookOutbox adapter must do with endpoints and the attempts of deliveries. */
export function describeWebhookDeliveryContract(
  adapterName: string,
  createFixture: CreateWebhookRepositoryFixture,
): void {
  describe(`WebhookRepository and WebhookOutbox delivery contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);

    it('creates, finds, lists by id and replaces endpoints; a replaced one keeps its creation and is enabled again', async () => {
      const { webhooks, outbox } = store();
      const definition = webhookDefinition('b-hook', { events: ['meal.withdrawn', 'menu.published'] });
      expect(await webhooks.find('b-hook')).toBeUndefined();
      const saved = await webhooks.save(definition, savedAt);
      expect(saved).toEqual({
        created: true,
        webhook: { ...definition, createdAt: savedAt, updatedAt: savedAt, failingSince: null, disabledAt: null },
      });
      await webhooks.save(webhookDefinition('a-hook'), savedAt);
      expect((await webhooks.list()).map((webhook) => webhook.id)).toEqual(['a-hook', 'b-hook']);

      await withDeliveries(store(), 1);
      const [claimed] = await outbox.claimDue(at, 10, leaseMs);
      await outbox.record('hook', claimed!.delivery.event.id, failed(null), at, true);
      expect(await webhooks.find('hook')).toMatchObject({ failingSince: at, disabledAt: at });

      const replaced = await webhooks.save(
        webhookDefinition('hook', { url: 'https://other.example/in', events: ['meal.withdrawn'] }),
        hoursAfter(at, 1),
      );
      expect(replaced).toEqual({
        created: false,
        webhook: {
          ...webhookDefinition('hook', { url: 'https://other.example/in', events: ['meal.withdrawn'] }),
          createdAt: savedAt,
          updatedAt: hoursAfter(at, 1),
          failingSince: null,
          disabledAt: null,
        },
      });
      expect(await webhooks.find('hook')).toEqual(replaced.webhook);
      // The log stays with a replaced endpoint.
      expect(await outbox.deliveries('hook', { limit: 10 })).toHaveLength(1);
    });

    it('claims due deliveries oldest first, up to the limit, and not again before the lease ends', async () => {
      const fixture = store();
      await withDeliveries(fixture, 3);
      const { outbox } = fixture;
      expect(await outbox.claimDue(ms(at, -1), 10, leaseMs)).toEqual([]);

      const first = await outbox.claimDue(at, 2, leaseMs);
      expect(first).toHaveLength(2);
      expect(first[0]).toMatchObject({
        webhook: { id: 'hook', url: 'https://receiver.example/hook' },
        leasedUntil: ms(at, leaseMs),
        delivery: { state: 'pending', attempts: 0 },
      });
      const second = await outbox.claimDue(at, 10, leaseMs);
      expect(second).toHaveLength(1);
      expect(await outbox.claimDue(ms(at, leaseMs - 1), 10, leaseMs)).toEqual([]);
      // A lease that ran out without a record (a crash): due again, for anyone.
      const again = await outbox.claimDue(ms(at, leaseMs), 10, leaseMs);
      const ids = (claims: typeof first) => claims.map((claim) => claim.delivery.event.id).sort();
      expect(ids(again)).toEqual(ids([...first, ...second]));
      expect(await outbox.nextDueAt()).toEqual(ms(at, 2 * leaseMs));
      // Claimed is still waiting: only a recorded attempt ends the wait.
      expect(await outbox.pendingCount()).toBe(3);
    });

    it("claims within each endpoint's room: its oldest due first, less its attempts under way, none when full", async () => {
      const fixture = store();
      // `hook` has 4 due deliveries, made before the 2 of `other`: oldest first alone would hand `hook` every slot.
      await withDeliveries(fixture, 4);
      await fixture.webhooks.save(webhookDefinition('other', { events: ['menu.published'] }), savedAt);
      for (const id of [11, 12])
        await fixture.meals.upsertMany([MealMother.servedAt(hoursAfter(at, 24 * id), { id })], undefined, at);
      await fixture.outbox.fanOut(ms(at, 1), 10);
      const { outbox } = fixture;
      const endpoints = (claims: readonly { readonly webhook: { readonly id: string } }[]) =>
        claims.map((claim) => claim.webhook.id);

      const first = await outbox.claimDue(ms(at, 1), 10, leaseMs, { perEndpoint: 2, busy: new Map([['other', 1]]) });
      expect(endpoints(first)).toEqual(['hook', 'hook', 'other']);
      // `hook` also has the 2 newer events' deliveries: its oldest due ones are taken.
      expect(first.map((claim) => claim.delivery.createdAt)).toEqual([at, at, ms(at, 1)]);
      // `hook` full (backed off, or 2 under way): only `other`'s last one; then nothing is left within the room.
      expect(
        endpoints(await outbox.claimDue(ms(at, 1), 10, leaseMs, { perEndpoint: 2, busy: new Map([['hook', 2]]) })),
      ).toEqual(['other']);
      expect(await outbox.claimDue(ms(at, 1), 10, leaseMs, { perEndpoint: 2, busy: new Map([['hook', 2]]) })).toEqual(
        [],
      );
      expect(endpoints(await outbox.claimDue(ms(at, 1), 10, leaseMs, { perEndpoint: 1, busy: new Map() }))).toEqual([
        'hook',
      ]);
      // The limit still holds across endpoints.
      expect(await outbox.claimDue(ms(at, 1), 0, leaseMs, { perEndpoint: 5, busy: new Map() })).toEqual([]);
    });

    it('answers the next due instant without the endpoints it is told to leave out', async () => {
      const fixture = store();
      await withDeliveries(fixture, 1);
      await fixture.webhooks.save(webhookDefinition('other', { events: ['menu.published'] }), savedAt);
      const { outbox } = fixture;
      const [claim] = await outbox.claimDue(at, 10, leaseMs);
      await outbox.record('hook', claim!.delivery.event.id, failed(hoursAfter(at, 1), null), at, false);
      await fixture.meals.upsertMany([MealMother.servedAt(hoursAfter(at, 200), { id: 20 })], undefined, at);
      await outbox.fanOut(hoursAfter(at, 2), 10);

      expect(await outbox.nextDueAt()).toEqual(hoursAfter(at, 1));
      expect(await outbox.nextDueAt(new Set(['hook']))).toEqual(hoursAfter(at, 2));
      expect(await outbox.nextDueAt(new Set(['hook', 'other']))).toBeNull();
    });

    it('records a delivery: delivered for good, the endpoint no longer failing', async () => {
      const fixture = store();
      await withDeliveries(fixture, 2);
      const { outbox, webhooks } = fixture;
      const [a, b] = await outbox.claimDue(at, 10, leaseMs);
      await outbox.record('hook', a!.delivery.event.id, failed(hoursAfter(at, 1), null), ms(at, 10), false);
      expect((await webhooks.find('hook'))?.failingSince).toEqual(ms(at, 10));

      await outbox.record('hook', b!.delivery.event.id, { kind: 'delivered', status: 204 }, ms(at, 20), false);

      expect((await webhooks.find('hook'))?.failingSince).toBeNull();
      const log = await outbox.deliveries('hook', { limit: 10 });
      const delivered = log.find((delivery) => delivery.event.id === b!.delivery.event.id);
      expect(delivered).toEqual({
        ...b!.delivery,
        state: 'delivered',
        attempts: 1,
        nextAttemptAt: null,
        lastAttemptAt: ms(at, 20),
        lastStatus: 204,
        lastError: null,
      });
      expect(await outbox.claimDue(hoursAfter(at, 5), 10, leaseMs)).toHaveLength(1);
    });

    it('retries a failed delivery at its retry instant with the same event, keeps the first failure, and gives up', async () => {
      const fixture = store();
      await withDeliveries(fixture, 1);
      const { outbox, webhooks } = fixture;
      const [claim] = await outbox.claimDue(at, 10, leaseMs);
      const event = claim!.delivery.event;

      expect(await outbox.pendingCount()).toBe(1);
      await outbox.record('hook', event.id, failed(hoursAfter(at, 1)), ms(at, 5), false);
      expect(await outbox.pendingCount()).toBe(1);
      expect(await outbox.deliveries('hook', { limit: 10 })).toEqual([
        {
          ...claim!.delivery,
          state: 'pending',
          attempts: 1,
          nextAttemptAt: hoursAfter(at, 1),
          lastAttemptAt: ms(at, 5),
          lastStatus: 500,
          lastError: 'HTTP 500',
        },
      ]);
      expect(await outbox.nextDueAt()).toEqual(hoursAfter(at, 1));
      expect(await outbox.claimDue(ms(hoursAfter(at, 1), -1), 10, leaseMs)).toEqual([]);
      const [retry] = await outbox.claimDue(hoursAfter(at, 1), 10, leaseMs);
      expect(retry?.delivery.event).toEqual(event);
      expect(retry?.delivery.attempts).toBe(1);

      await outbox.record('hook', event.id, failed(null, 503), hoursAfter(at, 1), false);

      expect(await outbox.deliveries('hook', { limit: 10 })).toMatchObject([
        { state: 'failed', attempts: 2, nextAttemptAt: null, lastStatus: 503 },
      ]);
      expect(await webhooks.find('hook')).toMatchObject({ failingSince: ms(at, 5), disabledAt: null });
      expect(await outbox.claimDue(hoursAfter(at, 100), 10, leaseMs)).toEqual([]);
      expect(await outbox.nextDueAt()).toBeNull();
      expect(await outbox.pendingCount()).toBe(0);
    });

    it('disables an endpoint: its deliveries wait, new events skip it, until a save enables it again', async () => {
      const fixture = store();
      await withDeliveries(fixture, 2);
      const { outbox, webhooks, meals } = fixture;
      const [first] = await outbox.claimDue(at, 1, leaseMs);
      await outbox.record('hook', first!.delivery.event.id, failed(hoursAfter(at, 1)), at, true);
      expect((await webhooks.find('hook'))?.disabledAt).toEqual(at);
      await meals.upsertMany([MealMother.servedAt(hoursAfter(at, 100), { id: 50 })], undefined, at);
      await outbox.fanOut(at, 10);

      expect(await outbox.claimDue(hoursAfter(at, 2), 10, leaseMs)).toEqual([]);
      expect(await outbox.nextDueAt()).toBeNull();
      expect(await outbox.deliveries('hook', { limit: 10 })).toHaveLength(2);

      await webhooks.save(webhookDefinition('hook', { events: ['menu.published'] }), hoursAfter(at, 2));
      expect(await outbox.claimDue(hoursAfter(at, 2), 10, leaseMs)).toHaveLength(2);
    });

    it('pages the log newest first, by creation and then event id', async () => {
      const fixture = store();
      await fixture.webhooks.save(webhookDefinition('hook', { events: ['menu.published'] }), savedAt);
      for (let id = 1; id <= 5; id++) {
        await fixture.meals.upsertMany([MealMother.servedAt(hoursAfter(at, 24 * id), { id })], undefined, at);
        // Two deliveries made at each of three instants.
        if (id % 2 === 0 || id === 5) await fixture.outbox.fanOut(hoursAfter(at, id), 10);
      }
      const all = await fixture.outbox.deliveries('hook', { limit: 100 });
      expect(all).toHaveLength(5);
      const order = [...all].sort(
        (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.event.id < b.event.id ? 1 : -1),
      );
      expect(all).toEqual(order);

      const pages: string[][] = [];
      let before: { createdAt: Date; eventId: string } | undefined;
      for (;;) {
        const page = await fixture.outbox.deliveries('hook', { limit: 2, ...(before === undefined ? {} : { before }) });
        if (page.length === 0) break;
        pages.push(page.map((delivery) => delivery.event.id));
        const last = page[page.length - 1]!;
        before = { createdAt: last.createdAt, eventId: last.event.id };
      }
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      expect(pages.flat()).toEqual(all.map((delivery) => delivery.event.id));
      expect(await fixture.outbox.deliveries('other', { limit: 10 })).toEqual([]);
    });

    it('removes an endpoint with its deliveries; a record for them afterwards is ignored', async () => {
      const fixture = store();
      await withDeliveries(fixture, 2);
      await fixture.webhooks.save(webhookDefinition('kept', { events: ['menu.published'] }), savedAt);
      await fixture.meals.upsertMany([MealMother.servedAt(hoursAfter(at, 100), { id: 50 })], undefined, at);
      await fixture.outbox.fanOut(at, 10);
      const claims = await fixture.outbox.claimDue(at, 10, leaseMs);
      expect(claims).toHaveLength(4);

      expect(await fixture.webhooks.remove('hook')).toBe(true);
      expect(await fixture.webhooks.remove('hook')).toBe(false);

      for (const { delivery } of claims)
        await fixture.outbox.record(
          delivery.webhookId,
          delivery.event.id,
          { kind: 'delivered', status: 200 },
          at,
          false,
        );
      expect(await fixture.webhooks.find('hook')).toBeUndefined();
      expect(await fixture.outbox.deliveries('hook', { limit: 10 })).toEqual([]);
      expect(await fixture.outbox.deliveries('kept', { limit: 10 })).toMatchObject([{ state: 'delivered' }]);
      // Saved again under the same id, it starts with an empty log.
      await fixture.webhooks.save(webhookDefinition('hook'), hoursAfter(at, 1));
      expect(await fixture.outbox.deliveries('hook', { limit: 10 })).toEqual([]);
    });
  });
}
