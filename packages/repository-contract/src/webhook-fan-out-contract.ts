import { describe, expect, it } from 'vitest';
import { MealMother } from './meal-mother.js';
import { freshFixturePerTest } from './repository-fixture.js';
import {
  disabledEndpoint,
  dishIdOf,
  hoursAfter,
  observedEvents,
  webhookDefinition,
  withoutIds,
  type CreateWebhookRepositoryFixture,
  type WebhookRepositoryFixture,
} from './webhook-fixture.js';

const writeAt = new Date('2026-03-09T10:00:00.000Z');
const lastWeek = hoursAfter(writeAt, -7 * 24);
const tomorrow = new Date('2026-03-10T11:30:00.000Z');

/** Every event of the endpoint's deliveries, by type. */
async function typesDeliveredTo(fixture: WebhookRepositoryFixture, webhookId: string): Promise<string[]> {
  return (await fixture.outbox.deliveries(webhookId, { limit: 100 })).map((delivery) => delivery.event.type).sort();
}

/** What every WebhookOutbox adapter's fan-out must do: deliveries to subscribed enabled endpoints, and favourites. */
export function describeWebhookFanOutContract(
  adapterName: string,
  createFixture: CreateWebhookRepositoryFixture,
): void {
  describe(`WebhookOutbox fan-out contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);

    it('takes events in the order they were recorded, up to the limit, and removes them', async () => {
      const { meals, outbox } = store();
      for (const id of [1, 2, 3])
        await meals.upsertMany([MealMother.servedAt(hoursAfter(tomorrow, 24 * id), { id })], undefined, writeAt);

      expect(await outbox.nextDueAt()).toEqual(writeAt);
      expect(await outbox.fanOut(writeAt, 2)).toBe(2);
      expect(await outbox.fanOut(writeAt, 2)).toBe(1);
      expect(await outbox.fanOut(writeAt, 2)).toBe(0);
      // Without an endpoint, the events went nowhere: nothing is due.
      expect(await outbox.nextDueAt()).toBeNull();
    });

    it('makes one pending delivery, due at once, per enabled endpoint subscribed to the type', async () => {
      const fixture = store();
      const { webhooks, meals, outbox } = fixture;
      await disabledEndpoint(fixture, 'disabled', lastWeek);
      await webhooks.save(webhookDefinition('menus', { events: ['menu.published'] }), writeAt);
      await webhooks.save(webhookDefinition('withdrawals', { events: ['meal.withdrawn'] }), writeAt);
      await webhooks.save(webhookDefinition('both', { events: ['meal.withdrawn', 'menu.published'] }), writeAt);
      await meals.upsertMany([MealMother.servedAt(tomorrow, { id: 1 })], undefined, writeAt);
      await meals.withdraw(1, writeAt);
      const at = hoursAfter(writeAt, 0.25);

      expect(await outbox.fanOut(at, 10)).toBe(2);

      expect(await typesDeliveredTo(fixture, 'menus')).toEqual(['menu.published']);
      expect(await typesDeliveredTo(fixture, 'withdrawals')).toEqual(['meal.withdrawn']);
      expect(await typesDeliveredTo(fixture, 'both')).toEqual(['meal.withdrawn', 'menu.published']);
      // Only the delivery it failed before it was disabled.
      expect(await typesDeliveredTo(fixture, 'disabled')).toEqual(['menu.published']);
      const [delivery] = await outbox.deliveries('menus', { limit: 10 });
      expect(delivery).toMatchObject({
        webhookId: 'menus',
        state: 'pending',
        attempts: 0,
        nextAttemptAt: at,
        lastAttemptAt: null,
        lastStatus: null,
        lastError: null,
        createdAt: at,
      });
      // Both endpoints got the same event, with the same id.
      const ids = async (webhookId: string) =>
        (await outbox.deliveries(webhookId, { limit: 10 })).map((each) => each.event.id).sort();
      expect(await ids('both')).toEqual([...(await ids('menus')), ...(await ids('withdrawals'))].sort());
      expect(await outbox.nextDueAt()).toEqual(at);
    });

    describe('favourites.upcoming', () => {
      /** alice marked Currywurst last week, bob marked Salat; carol marked nothing. */
      async function marked(): Promise<WebhookRepositoryFixture> {
        const fixture = store();
        await fixture.webhooks.save(webhookDefinition('favourites', { events: ['favourites.upcoming'] }), lastWeek);
        await fixture.meals.upsertMany(
          [
            MealMother.servedAt(lastWeek, { id: 1, name: 'Currywurst' }),
            MealMother.servedAt(lastWeek, { id: 2, name: 'Salat' }),
          ],
          undefined,
          lastWeek,
        );
        await fixture.markings.setMarked('alice', 1, true);
        await fixture.markings.setMarked('bob', 2, true);
        await fixture.meals.withdraw(1, lastWeek);
        await observedEvents(fixture, lastWeek);
        return fixture;
      }

      it("leaves out the servings the user's label filter leaves out and those of dishes they avoid (issue 27)", async () => {
        const fixture = await marked();
        const salat = await dishIdOf(fixture, 'default', 'Salat', lastWeek);
        await fixture.preferences.saveFilter('alice', { without: ['gluten'], only: [] });
        await fixture.preferences.avoid('bob', salat, lastWeek);
        await fixture.meals.upsertMany(
          [
            MealMother.servedAt(tomorrow, { id: 10, name: 'Currywurst', labels: ['gluten', 'wheat'] }),
            MealMother.servedAt(hoursAfter(tomorrow, 1), { id: 13, name: 'Currywurst', labels: ['pork'] }),
            MealMother.servedAt(hoursAfter(tomorrow, -1), { id: 11, name: 'Salat' }),
          ],
          undefined,
          writeAt,
        );
        const events = (await observedEvents(fixture, writeAt)).filter((event) => event.type === 'favourites.upcoming');
        expect(
          events.map((event) =>
            event.type === 'favourites.upcoming'
              ? [event.data.userId, event.data.meals.map((meal) => meal.mealId)]
              : [],
          ),
        ).toEqual([['alice', [13]]]);
      });

      it('tells each user whose marked dish comes back, once per canteen day, with its meals', async () => {
        const fixture = await marked();
        await fixture.meals.upsertMany(
          [
            MealMother.servedAt(tomorrow, { id: 10, name: 'currywurst' }),
            MealMother.servedAt(hoursAfter(tomorrow, -1), { id: 11, name: 'Salat' }),
            MealMother.servedAt(tomorrow, { id: 12, name: 'Pizza' }),
          ],
          undefined,
          writeAt,
        );
        // Another write of the same day, fanned out with the first: alice's second favourite joins her event.
        await fixture.meals.upsertMany(
          [MealMother.servedAt(hoursAfter(tomorrow, 1), { id: 13, name: 'Currywurst' })],
          undefined,
          writeAt,
        );
        const currywurst = await dishIdOf(fixture, 'default', 'Currywurst', writeAt);
        const salat = await dishIdOf(fixture, 'default', 'Salat', writeAt);

        const events = (await observedEvents(fixture, writeAt)).filter((event) => event.type === 'favourites.upcoming');

        expect(withoutIds(events)).toEqual([
          {
            type: 'favourites.upcoming',
            occurredAt: writeAt,
            data: {
              userId: 'alice',
              canteenId: 'default',
              date: '2026-03-10',
              meals: [
                { mealId: 10, dishId: currywurst, name: 'currywurst', servedAt: tomorrow },
                { mealId: 13, dishId: currywurst, name: 'Currywurst', servedAt: hoursAfter(tomorrow, 1) },
              ],
            },
          },
          {
            type: 'favourites.upcoming',
            occurredAt: writeAt,
            data: {
              userId: 'bob',
              canteenId: 'default',
              date: '2026-03-10',
              meals: [{ mealId: 11, dishId: salat, name: 'Salat', servedAt: hoursAfter(tomorrow, -1) }],
            },
          },
        ]);
        expect(await typesDeliveredTo(fixture, 'favourites')).toEqual(['favourites.upcoming', 'favourites.upcoming']);
      });

      it('leaves out meals served by the fan-out, withdrawn meals, changed meals and days the user did not mark', async () => {
        const fixture = await marked();
        // Served before the fan-out's instant; then a serving that is withdrawn before the fan-out.
        await fixture.meals.upsertMany(
          [MealMother.servedAt(hoursAfter(writeAt, 1), { id: 20, name: 'Currywurst' })],
          undefined,
          writeAt,
        );
        await fixture.meals.upsertMany(
          [MealMother.servedAt(tomorrow, { id: 21, name: 'Currywurst' })],
          undefined,
          writeAt,
        );
        await fixture.meals.withdraw(21, writeAt);
        // Written again: changed, not added.
        await fixture.meals.upsertMany([MealMother.servedAt(tomorrow, { id: 2, name: 'Salat' })], undefined, writeAt);

        const events = await observedEvents(fixture, hoursAfter(writeAt, 2));

        expect(events.filter((event) => event.type === 'favourites.upcoming')).toEqual([]);
      });

      it('goes to subscribed endpoints only, and the events about a user go with their data', async () => {
        const fixture = await marked();
        await fixture.webhooks.save(webhookDefinition('menus', { events: ['menu.published'] }), writeAt);
        await fixture.markings.setMarked('carol', 2, true);
        await fixture.meals.upsertMany(
          [
            MealMother.servedAt(tomorrow, { id: 10, name: 'Currywurst' }),
            MealMother.servedAt(tomorrow, { id: 11, name: 'Salat' }),
          ],
          undefined,
          writeAt,
        );
        await observedEvents(fixture, writeAt);
        const users = async (webhookId: string) =>
          (await fixture.outbox.deliveries(webhookId, { limit: 100 }))
            .flatMap((delivery) => (delivery.event.type === 'favourites.upcoming' ? [delivery.event.data.userId] : []))
            .sort();
        expect(await users('favourites')).toEqual(['alice', 'bob', 'carol']);
        expect(await users('menus')).toEqual([]);

        expect(await fixture.userData.eraseAll('bob')).toEqual({ markings: 1, ratings: 0, meals: [] });

        expect(await users('favourites')).toEqual(['alice', 'carol']);
        expect(await users('observer')).toEqual(['alice', 'carol']);
        expect(await typesDeliveredTo(fixture, 'menus')).toEqual(['menu.published']);
      });
    });
  });
}
