import { describe, expect, it } from 'vitest';
import { accept, canteenDaysOf, decideMenuDays, maxMealsPerCanteenDay, type ServedMeal } from '../src/index.js';

const berlin = new Map([
  ['default', 'Europe/Berlin'],
  ['nord', 'Europe/Berlin'],
]);
const at = (instant: string, canteenId = 'default'): ServedMeal => ({ canteenId, servedAt: new Date(instant) });
const times = (count: number, meal: ServedMeal): ServedMeal[] => Array.from({ length: count }, () => meal);

describe('canteenDaysOf', () => {
  it("places each meal on the date its canteen's clocks show, each day once, in the order of their first meals", () => {
    const meals = [
      at('2026-11-23T11:00:00Z'),
      at('2026-11-23T22:59:59.999Z'),
      at('2026-11-23T23:00:00Z'),
      at('2026-11-23T07:00:00Z'),
    ];

    expect(canteenDaysOf(meals, berlin)).toEqual([
      {
        canteenId: 'default',
        date: '2026-11-23',
        from: new Date('2026-11-22T23:00:00Z'),
        until: new Date('2026-11-23T23:00:00Z'),
      },
      {
        canteenId: 'default',
        date: '2026-11-24',
        from: new Date('2026-11-23T23:00:00Z'),
        until: new Date('2026-11-24T23:00:00Z'),
      },
    ]);
  });

  it('keeps the days of two canteens apart, each on its own clocks', () => {
    const zones = new Map([
      ['default', 'Europe/Berlin'],
      ['sydney', 'Australia/Sydney'],
    ]);
    const days = canteenDaysOf([at('2026-11-23T11:00:00Z'), at('2026-11-23T11:00:00Z', 'sydney')], zones);

    expect(days.map(({ canteenId, date }) => [canteenId, date])).toEqual([
      ['default', '2026-11-23'],
      ['sydney', '2026-11-23'],
    ]);
    expect(days[1]?.from).toEqual(new Date('2026-11-22T13:00:00Z'));
  });

  it("throws for a canteen whose time zone it is not given (a caller's bug)", () => {
    expect(() => canteenDaysOf([at('2026-11-23T11:00:00Z', 'elsewhere')], berlin)).toThrow(RangeError);
  });
});

describe('decideMenuDays', () => {
  const monday = canteenDaysOf([at('2026-11-23T11:00:00Z')], berlin);

  it(`accepts a day that would serve exactly ${maxMealsPerCanteenDay} meals, answering what each day holds`, () => {
    expect(decideMenuDays(monday, [400], times(100, at('2026-11-23T11:00:00Z')))).toEqual(accept([500]));
    expect(decideMenuDays(monday, [500], [])).toEqual(accept([500]));
  });

  it('refuses one meal more, naming the canteen, the day and the count', () => {
    expect(decideMenuDays(monday, [400], times(101, at('2026-11-23T11:00:00Z')))).toEqual({
      ok: false,
      refusal: {
        code: 'menu_day_full',
        message: 'The canteen "default" would serve 501 meals on 2026-11-23; a day holds at most 500.',
      },
    });
    expect(decideMenuDays(monday, [0], times(512, at('2026-11-23T11:00:00Z')))).toMatchObject({
      refusal: { message: 'The canteen "default" would serve 512 meals on 2026-11-23; a day holds at most 500.' },
    });
  });

  it('counts a meal on the day whose instants hold it, on the clocks of its canteen', () => {
    const served = [
      ...times(500, at('2026-11-22T23:00:00Z')),
      at('2026-11-22T22:59:59.999Z'),
      at('2026-11-23T23:00:00Z'),
    ];
    expect(decideMenuDays(monday, [0], served)).toEqual(accept([500]));
    expect(decideMenuDays(monday, [0], [...served, at('2026-11-23T22:59:59.999Z')])).toMatchObject({ ok: false });
  });

  it('counts the days of two canteens separately', () => {
    const days = canteenDaysOf([at('2026-11-23T11:00:00Z'), at('2026-11-23T11:00:00Z', 'nord')], berlin);
    const served = [...times(300, at('2026-11-23T11:00:00Z')), ...times(300, at('2026-11-23T11:00:00Z', 'nord'))];

    expect(decideMenuDays(days, [200, 200], served)).toEqual(accept([500, 500]));
    expect(decideMenuDays(days, [200, 201], served)).toMatchObject({
      refusal: { message: 'The canteen "nord" would serve 501 meals on 2026-11-23; a day holds at most 500.' },
    });
  });

  it('leaves out served meals on other days: a meal moved away from a full day makes room there', () => {
    // 500 are held besides the written meals; one of them moves to Tuesday, so Monday takes one new meal.
    const days = canteenDaysOf([at('2026-11-23T11:00:00Z'), at('2026-11-24T11:00:00Z')], berlin);
    expect(decideMenuDays(days, [499, 0], [at('2026-11-23T11:00:00Z'), at('2026-11-24T11:00:00Z')])).toEqual(
      accept([500, 1]),
    );
  });

  it("throws when the counts do not match the days (an adapter's bug)", () => {
    expect(() => decideMenuDays(monday, [], [])).toThrow(RangeError);
  });
});
