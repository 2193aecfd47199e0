import {
  accept,
  decideAvailability,
  initialAvailability,
  refuse,
  type AvailabilitySnapshot,
  type AvailabilityStatus,
} from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { MealMother } from './meal-mother.js';
import { freshFixturePerTest } from './repository-fixture.js';
import { hoursAfter, observedEvents, withoutIds, type CreateWebhookRepositoryFixture } from './webhook-fixture.js';

/** Tuesday 2026-03-10, 11:30 UTC: 12:30 on Berlin's clocks. */
const lunch = new Date('2026-03-10T11:30:00.000Z');
const berlin = {
  id: 'berlin',
  name: 'Mensa Berlin',
  timeZone: 'Europe/Berlin',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
};

/**
 * What every adapter's AvailabilityRepository does: each serving starts available and never changed; a change of
 * status is written with its `meal.availability_changed` in one unit of work and shows on every read of the meal; the
 * same status again writes nothing; a refusal writes nothing; concurrent changes of one meal are applied in turn.
 */
export function describeAvailabilityRepositoryContract(
  adapterName: string,
  createFixture: CreateWebhookRepositoryFixture,
): void {
  describe(`AvailabilityRepository contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);
    const set = (mealId: number, status: AvailabilityStatus, now: Date, anyDay = false) =>
      store().availability.change(mealId, (snapshot) => decideAvailability(snapshot, { status, now, anyDay }));
    const viewOf = async (mealId: number) => (await store().queries.viewsByIds(null, [mealId], lunch))[0];

    it('answers every serving available and never changed until the kitchen says otherwise', async () => {
      const fixture = store();
      await fixture.meals.upsertMany([MealMother.servedAt(lunch, { id: 1 })]);
      expect((await viewOf(1))?.availability).toEqual(initialAvailability);
    });

    it('hands the decision the meal, its canteen and the canteen’s time zone, as stored', async () => {
      const fixture = store();
      await fixture.canteens.save(berlin);
      await fixture.meals.upsertMany([MealMother.servedAt(lunch, { id: 7, canteenId: 'berlin' })]);
      let seen: AvailabilitySnapshot | undefined;
      const refused = await fixture.availability.change(7, (snapshot) => {
        seen = snapshot;
        return refuse('meal_not_today');
      });
      expect(refused).toEqual(refuse('meal_not_today'));
      expect(seen).toEqual({
        mealId: 7,
        canteenId: 'berlin',
        servedAt: lunch,
        timeZone: 'Europe/Berlin',
        availability: initialAvailability,
      });
    });

    it('writes a change of status with its instant, shows it on every read, and records one event at that instant', async () => {
      const fixture = store();
      await fixture.canteens.save(berlin);
      await fixture.meals.upsertMany([MealMother.servedAt(lunch, { id: 3, canteenId: 'berlin' })], undefined, lunch);
      await observedEvents(fixture, lunch);
      const soldOutAt = hoursAfter(lunch, 1);

      const answer = await set(3, 'sold_out', soldOutAt);

      const soldOut = { status: 'sold_out', changedAt: soldOutAt };
      expect(answer).toEqual(
        accept({ mealId: 3, canteenId: 'berlin', date: '2026-03-10', previous: initialAvailability, next: soldOut }),
      );
      expect((await viewOf(3))?.availability).toEqual(soldOut);
      const window = { canteenId: 'berlin', from: hoursAfter(lunch, -1), until: hoursAfter(lunch, 1) };
      expect((await fixture.queries.viewsServedIn(null, [window], lunch)).map((view) => view.availability)).toEqual([
        soldOut,
      ]);
      const dishId = (await viewOf(3))!.dish.id;
      const servings = await fixture.dishQueries.servings(dishId, null, { after: null, limit: 10 }, lunch);
      expect(servings.map((view) => view.availability)).toEqual([soldOut]);
      const events = withoutIds(
        (await observedEvents(fixture, soldOutAt)).filter((event) => event.type === 'meal.availability_changed'),
      );
      expect(events).toEqual([
        {
          type: 'meal.availability_changed',
          occurredAt: soldOutAt,
          data: {
            mealId: 3,
            canteenId: 'berlin',
            date: '2026-03-10',
            availability: 'sold_out',
            availabilityChangedAt: soldOutAt,
          },
        },
      ]);
    });

    it('keeps a serving as it is when the same status is set again: its first instant, and no second event', async () => {
      const fixture = store();
      await fixture.meals.upsertMany([MealMother.servedAt(lunch, { id: 1 })]);
      await set(1, 'few_left', lunch);
      const again = await set(1, 'few_left', hoursAfter(lunch, 0.5));

      const fewLeft = { status: 'few_left', changedAt: lunch };
      expect(again).toMatchObject(accept({ previous: fewLeft, next: fewLeft }));
      expect((await viewOf(1))?.availability).toEqual(fewLeft);
      const events = (await observedEvents(fixture, hoursAfter(lunch, 1))).filter(
        (event) => event.type === 'meal.availability_changed',
      );
      expect(events).toHaveLength(1);
    });

    it('lets every status follow every other: a wrong tap is undone', async () => {
      store();
      await store().meals.upsertMany([MealMother.servedAt(lunch, { id: 1 })]);
      await set(1, 'sold_out', lunch);
      const undone = hoursAfter(lunch, 0.1);
      expect(await set(1, 'available', undone)).toMatchObject(
        accept({ next: { status: 'available', changedAt: undone } }),
      );
      expect((await viewOf(1))?.availability).toEqual({ status: 'available', changedAt: undone });
    });

    it('refuses an unknown or withdrawn meal, and a meal of another day without anyDay, writing nothing', async () => {
      const fixture = store();
      await fixture.meals.upsertMany([
        MealMother.servedAt(lunch, { id: 1 }),
        MealMother.servedAt(hoursAfter(lunch, 24), { id: 2 }),
      ]);
      await fixture.meals.withdraw(1, lunch);

      expect(await set(1, 'sold_out', lunch)).toEqual(refuse('meal_not_found'));
      expect(await set(99, 'sold_out', lunch)).toEqual(refuse('meal_not_found'));
      const tomorrow = await set(2, 'sold_out', lunch);
      expect(tomorrow.ok ? null : tomorrow.refusal.code).toBe('meal_not_today');

      expect((await viewOf(2))?.availability).toEqual(initialAvailability);
      const events = (await observedEvents(fixture, lunch)).filter(
        (event) => event.type === 'meal.availability_changed',
      );
      expect(events).toEqual([]);
      // An admin may correct another day.
      expect(await set(2, 'sold_out', lunch, true)).toMatchObject(accept({ date: '2026-03-11' }));
    });

    it('keeps the availability of a meal that is written again (an upsert or an import changes the menu, not the counter)', async () => {
      const fixture = store();
      const meal = MealMother.servedAt(lunch, { id: 1 });
      await fixture.meals.upsertMany([meal]);
      await set(1, 'sold_out', lunch);
      await fixture.meals.upsertMany([{ ...meal, name: 'Meal 1 renamed' }]);
      expect((await viewOf(1))?.availability).toEqual({ status: 'sold_out', changedAt: lunch });
    });

    it('applies two changes of one meal at once one after the other: the second decides on what the first wrote', async () => {
      const fixture = store();
      await fixture.meals.upsertMany([MealMother.servedAt(lunch, { id: 1 })]);
      const [first, second] = await Promise.all([
        set(1, 'few_left', lunch),
        set(1, 'sold_out', hoursAfter(lunch, 0.1)),
      ]);
      if (!first.ok || !second.ok) throw new Error('both changes are accepted');
      const [earlier, later] = first.value.previous.status === 'available' ? [first, second] : [second, first];
      expect(earlier.value.previous).toEqual(initialAvailability);
      expect(later.value.previous).toEqual(earlier.value.next);
      expect((await viewOf(1))?.availability).toEqual(later.value.next);
      const events = (await observedEvents(fixture, hoursAfter(lunch, 1))).filter(
        (event) => event.type === 'meal.availability_changed',
      );
      expect(events).toHaveLength(2);
    });
  });
}
