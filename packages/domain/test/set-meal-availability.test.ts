import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import {
  decideAvailability,
  initialAvailability,
  SetMealAvailability,
  type AvailabilitySnapshot,
  type MenuChange,
} from '@canteen-meals/domain';
import { MealMother } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';

const berlin = 'Europe/Berlin';
/** 23:30 UTC on Monday 2026-03-09 is already Tuesday on Berlin's clocks. */
const lateMonday = new Date('2026-03-09T23:30:00.000Z');
const snapshotOf = (servedAt: Date, timeZone = berlin): AvailabilitySnapshot => ({
  mealId: 1,
  canteenId: 'default',
  servedAt,
  timeZone,
  availability: initialAvailability,
});

describe('decideAvailability', () => {
  it("takes today from the canteen's clocks, not UTC's", () => {
    const tuesdayNoon = new Date('2026-03-10T11:00:00.000Z');
    expect(
      decideAvailability(snapshotOf(lateMonday), { status: 'sold_out', now: tuesdayNoon, anyDay: false }),
    ).toMatchObject({
      ok: true,
      value: { date: '2026-03-10' },
    });
    // In UTC the same meal is Monday's: refused on Tuesday.
    expect(
      decideAvailability(snapshotOf(lateMonday, 'UTC'), { status: 'sold_out', now: tuesdayNoon, anyDay: false }),
    ).toMatchObject({
      ok: false,
      refusal: { code: 'meal_not_today' },
    });
  });

  it('stands exactly on the day boundary: the last millisecond of the day is today, midnight is tomorrow', () => {
    // Berlin's Tuesday ends at 23:00 UTC.
    const lastMs = new Date('2026-03-10T22:59:59.999Z');
    const midnight = new Date('2026-03-10T23:00:00.000Z');
    const decide = (now: Date) =>
      decideAvailability(snapshotOf(lateMonday), { status: 'few_left', now, anyDay: false }).ok;
    expect(decide(lastMs)).toBe(true);
    expect(decide(midnight)).toBe(false);
  });

  it('keeps the serving as it is on the same status, and moves to another at `now`', () => {
    const now = new Date('2026-03-10T10:00:00.000Z');
    const fewLeft = { status: 'few_left' as const, changedAt: new Date('2026-03-10T09:00:00.000Z') };
    const snapshot = { ...snapshotOf(lateMonday), availability: fewLeft };
    expect(decideAvailability(snapshot, { status: 'few_left', now, anyDay: false })).toMatchObject({
      ok: true,
      value: { next: fewLeft },
    });
    expect(decideAvailability(snapshot, { status: 'available', now, anyDay: false })).toMatchObject({
      ok: true,
      value: { previous: fewLeft, next: { status: 'available', changedAt: now } },
    });
  });

  it('refuses a missing meal whatever the rights', () => {
    expect(decideAvailability(undefined, { status: 'sold_out', now: lateMonday, anyDay: true })).toMatchObject({
      ok: false,
      refusal: { code: 'meal_not_found' },
    });
  });
});

describe('SetMealAvailability', () => {
  async function world() {
    const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: berlin }));
    await adapters.meals.upsertMany([MealMother.servedAt(lateMonday, { id: 1 })]);
    const clock = new FixedClock(new Date('2026-03-10T11:00:00.000Z'));
    const announced: MenuChange[] = [];
    const setAvailability = new SetMealAvailability({
      availability: adapters.availability,
      clock,
      announce: (change) => announced.push(change),
    });
    return { setAvailability, announced, clock };
  }

  it('tells menus and live streams of a change after it is written, once, and of nothing else', async () => {
    const { setAvailability, announced, clock } = await world();
    const answer = await setAvailability.execute({ mealId: 1, status: 'sold_out', anyDay: false });
    expect(answer).toEqual({ ok: true, value: { status: 'sold_out', changedAt: clock.now() } });
    expect(announced).toEqual([
      { kind: 'availability', mealId: 1, availability: { status: 'sold_out', changedAt: clock.now() } },
    ]);

    await setAvailability.execute({ mealId: 1, status: 'sold_out', anyDay: false });
    await setAvailability.execute({ mealId: 2, status: 'sold_out', anyDay: false });
    expect(announced).toHaveLength(1);
  });

  it("lets `anyDay` change another day's meal, and refuses it otherwise", async () => {
    const { setAvailability, clock } = await world();
    clock.set(new Date('2026-03-12T11:00:00.000Z'));
    expect(await setAvailability.execute({ mealId: 1, status: 'sold_out', anyDay: false })).toMatchObject({
      ok: false,
      refusal: { code: 'meal_not_today' },
    });
    expect(await setAvailability.execute({ mealId: 1, status: 'sold_out', anyDay: true })).toMatchObject({ ok: true });
  });
});
