import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import {
  createUseCases,
  deliveriesOf,
  favouritesUpcomingEvents,
  importEvents,
  recordedEventOf,
  storedEventData,
  upsertEvents,
  withdrawalEvent,
  withMealDetails,
  type FavouriteServing,
  type MenuDay,
  type MenuImportPlan,
  type RecordedEvent,
} from '@canteen-meals/domain';
import { MealMother } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';

const zones = new Map([
  ['default', 'UTC'],
  ['berlin', 'Europe/Berlin'],
]);
const at = new Date('2026-03-28T12:00:00.000Z');

describe('upsertEvents', () => {
  it('places every meal on its canteen day on the canteen clocks, across a change to summer time', () => {
    // Berlin's clocks go forward on 2026-03-29: 22:30 UTC on the 28th is 23:30 there, 22:30 UTC on the 29th is 00:30
    // the 30th.
    const meals = [
      MealMother.servedAt(new Date('2026-03-29T22:30:00Z'), { id: 3, canteenId: 'berlin' }),
      MealMother.servedAt(new Date('2026-03-28T22:30:00Z'), { id: 2, canteenId: 'berlin' }),
      MealMother.servedAt(new Date('2026-03-28T22:30:00Z'), { id: 1 }),
      MealMother.servedAt(new Date('2026-03-29T21:59:00Z'), { id: 4, canteenId: 'berlin' }),
    ];
    expect(upsertEvents(meals, new Set([4]), zones).map((event) => event.data)).toEqual([
      { canteenId: 'berlin', date: '2026-03-30', cause: 'upsert', added: [3], changed: [], withdrawn: [] },
      { canteenId: 'berlin', date: '2026-03-28', cause: 'upsert', added: [2], changed: [], withdrawn: [] },
      { canteenId: 'default', date: '2026-03-28', cause: 'upsert', added: [1], changed: [], withdrawn: [] },
      { canteenId: 'berlin', date: '2026-03-29', cause: 'upsert', added: [], changed: [4], withdrawn: [] },
    ]);
  });

  it('refuses a canteen whose time zone it was not given', () => {
    expect(() => upsertEvents([MealMother.servedAt(at, { canteenId: 'nowhere' })], new Set(), zones)).toThrow(
      RangeError,
    );
  });
});

describe('importEvents', () => {
  const meal = (id: number, servedAt: string) => withMealDetails(MealMother.servedAt(new Date(servedAt), { id }));
  const plan: MenuImportPlan = {
    added: [{ key: 'k', servedOn: '2026-03-30', meal: meal(5, '2026-03-30T11:00:00Z') }],
    updated: [meal(2, '2026-03-31T11:00:00Z')],
    unchanged: [meal(1, '2026-04-01T11:00:00Z')],
    missing: [meal(4, '2026-03-31T11:00:00Z'), meal(3, '2026-03-31T11:00:00Z')],
    withdrawn: [meal(4, '2026-03-31T11:00:00Z'), meal(3, '2026-03-31T11:00:00Z')],
    at,
  };

  it('records the days that changed with the cause, then a meal.withdrawn per withdrawn meal by id; unchanged days nothing', () => {
    const events = importEvents(plan, 'feed', zones, new Map([[3, 7]]));
    expect(events).toEqual([
      {
        type: 'menu.published',
        data: { canteenId: 'default', date: '2026-03-30', cause: 'feed', added: [5], changed: [], withdrawn: [] },
      },
      {
        type: 'menu.published',
        data: { canteenId: 'default', date: '2026-03-31', cause: 'feed', added: [], changed: [2], withdrawn: [3, 4] },
      },
      {
        type: 'meal.withdrawn',
        data: { mealId: 3, canteenId: 'default', date: '2026-03-31', dishId: 7, withdrawnAt: at },
      },
      {
        type: 'meal.withdrawn',
        data: { mealId: 4, canteenId: 'default', date: '2026-03-31', dishId: null, withdrawnAt: at },
      },
    ]);
    expect(importEvents({ ...plan, added: [], updated: [], withdrawn: [] }, 'import', zones, new Map())).toEqual([]);
  });
});

describe('favouritesUpcomingEvents', () => {
  const serving = (userId: string, mealId: number, servedAt: string, date = '2026-03-30'): FavouriteServing => ({
    userId,
    canteenId: 'default',
    date,
    mealId,
    dishId: 1,
    name: `Meal ${mealId}`,
    servedAt: new Date(servedAt),
  });

  it('makes one event per user and canteen day, its meals by serving time then id, each once', () => {
    const events = favouritesUpcomingEvents([
      serving('bob', 9, '2026-03-30T11:00:00Z'),
      serving('alice', 8, '2026-03-30T12:00:00Z'),
      serving('alice', 7, '2026-03-30T12:00:00Z'),
      serving('alice', 6, '2026-03-30T11:00:00Z'),
      serving('alice', 7, '2026-03-30T12:00:00Z'),
      serving('alice', 5, '2026-03-31T11:00:00Z', '2026-03-31'),
    ]);
    expect(
      events.map((event) =>
        event.type === 'favourites.upcoming'
          ? [event.data.userId, event.data.date, event.data.meals.map((m) => m.mealId)]
          : [],
      ),
    ).toEqual([
      ['alice', '2026-03-30', [6, 7, 8]],
      ['alice', '2026-03-31', [5]],
      ['bob', '2026-03-30', [9]],
    ]);
  });
});

describe('the stored form of events', () => {
  it('reads back every event type exactly, instants included', () => {
    const events: RecordedEvent[] = [
      {
        id: 'evt_1',
        occurredAt: at,
        type: 'menu.published',
        data: { canteenId: 'default', date: '2026-03-30', cause: 'upsert', added: [1], changed: [], withdrawn: [] },
      },
      {
        id: 'evt_2',
        occurredAt: at,
        ...withdrawalEvent(
          { id: 3, servedAt: at, canteenId: 'berlin' },
          4,
          zones,
          new Date('2026-03-28T12:00:00.123Z'),
        ),
      },
      {
        id: 'evt_3',
        occurredAt: at,
        ...favouritesUpcomingEvents([
          {
            userId: 'alice',
            canteenId: 'default',
            date: '2026-03-30',
            mealId: 1,
            dishId: 2,
            name: 'Soup',
            servedAt: new Date('2026-03-30T11:00:00.007Z'),
          },
        ])[0]!,
      },
    ];
    for (const event of events)
      expect(
        recordedEventOf({ id: event.id, type: event.type, occurredAt: event.occurredAt, data: storedEventData(event) }),
      ).toEqual(event);
    expect(() => recordedEventOf({ id: 'evt_4', type: 'menu.deleted', occurredAt: at, data: '{}' })).toThrow(
      RangeError,
    );
  });
});

describe('deliveriesOf', () => {
  it('gives each event to the enabled endpoints subscribed to its type', () => {
    const event: RecordedEvent = {
      id: 'evt_1',
      occurredAt: at,
      type: 'meal.withdrawn',
      data: { mealId: 1, canteenId: 'default', date: '2026-03-28', dishId: null, withdrawnAt: at },
    };
    const endpoints = [
      { id: 'a', events: ['meal.withdrawn'], disabledAt: null },
      { id: 'b', events: ['menu.published'], disabledAt: null },
      { id: 'c', events: ['meal.withdrawn'], disabledAt: at },
    ];
    expect(deliveriesOf([event], endpoints)).toEqual([{ webhookId: 'a', event }]);
  });
});

describe('the use cases name the cause and the instant of their events', () => {
  it('an upsert at the clock, an import as an import, a feed fetch as a feed', async () => {
    const db = new InMemoryDatabase();
    const clock = new FixedClock('2026-08-01T05:00:00Z');
    const menu: MenuDay[] = [
      { date: '2026-08-03', closed: false, items: [{ category: 'Suppen', name: 'Tagessuppe', notes: [], prices: {} }] },
    ];
    const useCases = createUseCases(
      createInMemoryAdapters(db),
      clock,
      { start: '11:00', timeZone: 'UTC' },
      {
        feedSource: {
          fetch: async () => ({
            status: 'fetched',
            body: new TextEncoder().encode('{}'),
            httpStatus: 200,
            etag: null,
            lastModified: null,
          }),
        },
        feedReader: { read: () => ({ days: [{ ...menu[0]!, date: '2026-08-04' }] }) },
        nextRun: () => null,
      },
    );
    await useCases.saveCanteen.execute({
      id: 'mensa',
      name: 'Mensa',
      timeZone: 'UTC',
      city: null,
      address: null,
      coordinates: null,
      feeds: [{ name: 'full', url: 'https://mensa.example/full.xml', schedule: '0 6 * * *' }],
    });

    await useCases.upsertMeals.execute([MealMother.servedAt(new Date('2026-08-02T11:00:00Z'), { id: 1 })]);
    await useCases.importMenu.execute({ source: 'admin', days: menu, rateable: true });
    await useCases.runFeed.execute({ canteenId: 'mensa', feedName: 'full' });

    expect(
      db.outbox.map((event) => [
        event.type,
        event.occurredAt,
        event.type === 'menu.published' ? event.data.cause : null,
      ]),
    ).toEqual([
      ['menu.published', clock.now(), 'upsert'],
      ['menu.published', clock.now(), 'import'],
      ['menu.published', clock.now(), 'feed'],
    ]);
  });
});
