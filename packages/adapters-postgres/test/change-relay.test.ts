import {
  latestOfEachMeal,
  startChangeRelay,
  type ChangeRelay,
  type ChangeRelayEvent,
  type RelayScheduler,
} from '@canteen-meals/adapters-postgres';
import { openPostgres } from '@canteen-meals/adapters-postgres';
import { EraseUserData, MenuChangeHub, type MenuChange, type MenuChangeOrigin } from '@canteen-meals/domain';
import { MealMother, rateInPeriod } from '@canteen-meals/repository-contract';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { databasePerFile } from './support/test-database.js';

const databaseUrl = databasePerFile();
let pool: pg.Pool;
const running: ChangeRelay[] = [];
beforeAll(() => {
  pool = new pg.Pool({ connectionString: databaseUrl(), max: 3 });
});
afterEach(async () => {
  for (const relay of running.splice(0)) await relay.stop();
});
afterAll(async () => {
  await pool?.end();
});

/** Far above the 1 s the issue asks for: a slow machine must not fail the test, a lost change still does. */
const arrivalTimeoutMs = 10_000;

interface Heard {
  readonly change: MenuChange;
  readonly origin: MenuChangeOrigin;
}

/** A hub that keeps what it was told, and lets a test await the first told change that matches. */
function recordingHub() {
  const hub = new MenuChangeHub((error) => {
    throw error;
  });
  const heard: Heard[] = [];
  const waiting = new Set<{ matches: (heard: Heard) => boolean; resolve: (heard: Heard) => void }>();
  hub.subscribe((change, origin) => {
    const told = { change, origin };
    heard.push(told);
    for (const waiter of waiting) {
      if (!waiter.matches(told)) continue;
      waiting.delete(waiter);
      waiter.resolve(told);
    }
  });
  const next = (matches: (heard: Heard) => boolean, what: string): Promise<Heard> => {
    const already = heard.find(matches);
    if (already !== undefined) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const waiter = { matches, resolve: (told: Heard) => (clearTimeout(timer), resolve(told)) };
      const timer = setTimeout(() => {
        waiting.delete(waiter);
        reject(new Error(`not heard within ${arrivalTimeoutMs} ms: ${what}`));
      }, arrivalTimeoutMs);
      waiting.add(waiter);
    });
  };
  return { hub, heard, next };
}

/** Collects a relay's events; `next` awaits the first (not yet taken) one of a type. */
function eventLog() {
  const events: ChangeRelayEvent[] = [];
  let taken = 0;
  const listeners = new Set<() => void>();
  const onEvent = (event: ChangeRelayEvent) => {
    events.push(event);
    for (const listener of listeners) listener();
  };
  const next = <T extends ChangeRelayEvent['type']>(type: T): Promise<Extract<ChangeRelayEvent, { type: T }>> =>
    new Promise((resolve, reject) => {
      const look = () => {
        const index = events.findIndex((event, i) => i >= taken && event.type === type);
        if (index < 0) return false;
        taken = index + 1;
        listeners.delete(look);
        clearTimeout(timer);
        resolve(events[index] as Extract<ChangeRelayEvent, { type: T }>);
        return true;
      };
      const timer = setTimeout(() => {
        listeners.delete(look);
        reject(new Error(`no ${type} event within ${arrivalTimeoutMs} ms: ${JSON.stringify(events)}`));
      }, arrivalTimeoutMs);
      if (!look()) listeners.add(look);
    });
  return { events, onEvent, next };
}

/** Timers the test fires by hand. */
function manualScheduler() {
  const pending: { callback: () => void; ms: number; handle: number }[] = [];
  let handles = 0;
  const scheduler: RelayScheduler = {
    setTimeout: (callback, ms) => {
      pending.push({ callback, ms, handle: ++handles });
      return handles;
    },
    clearTimeout: (handle) => {
      const index = pending.findIndex((timer) => timer.handle === handle);
      if (index >= 0) pending.splice(index, 1);
    },
  };
  const fire = () => {
    const timer = pending.shift();
    if (timer === undefined) throw new Error('no timer is pending');
    timer.callback();
    return timer.ms;
  };
  return { scheduler, pending, fire };
}

const start = (
  options: Omit<Parameters<typeof startChangeRelay>[0], 'notifier' | 'connectionString'> & {
    connectionString?: string;
    notifier?: Pick<pg.Pool, 'query'>;
  },
) => {
  const relay = startChangeRelay({ connectionString: databaseUrl(), notifier: pool, ...options });
  running.push(relay);
  return relay;
};

/** The pool as a notifier that keeps the values of every query it sends. */
function notifierCounting(): { sent: unknown[][]; notifier: Pick<pg.Pool, 'query'> } {
  const sent: unknown[][] = [];
  const notifier = {
    query: (text: string, values: unknown[]) => {
      sent.push(values);
      return pool.query(text, values);
    },
  } as unknown as Pick<pg.Pool, 'query'>;
  return { sent, notifier };
}

const rating: MenuChange = {
  kind: 'rating',
  mealId: 7,
  histogram: [0, 0, 1, 0, 2],
  dish: { id: 3, histogram: [1, 0, 1, 0, 2] },
};

const listeningBackends = async (): Promise<number[]> => {
  const { rows } = await pool.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'meals-listen'",
  );
  return rows.map((row) => row.pid);
};

describe('the PostgreSQL change relay', () => {
  it('brings a change published on one instance to the other, as remote, and not back to the first', async () => {
    const a = recordingHub();
    const b = recordingHub();
    const relays = [start({ hub: a.hub }), start({ hub: b.hub })];
    await Promise.all(relays.map((relay) => relay.ready));

    const sentAt = Date.now();
    a.hub.publish(rating);
    expect(await b.next(({ change }) => change.kind === 'rating', 'the rating on B')).toEqual({
      change: rating,
      origin: 'remote',
    });
    expect(Date.now() - sentAt).toBeLessThan(arrivalTimeoutMs);

    // B's answer is sent after A's change committed; A reads its notifications in commit order, so by the time it
    // hears B's, its own came back too, and was skipped.
    b.hub.publish({ kind: 'menus' });
    await a.next(({ origin }) => origin === 'remote', "B's change on A");
    expect(a.heard).toEqual([
      { change: rating, origin: 'local' },
      { change: { kind: 'menus' }, origin: 'remote' },
    ]);
    // B did not send A's change on again: it heard its own publish and A's rating, nothing more.
    expect(b.heard).toEqual([
      { change: rating, origin: 'remote' },
      { change: { kind: 'menus' }, origin: 'local' },
    ]);
  });

  it("brings a change of a serving's availability to the other instance with its instant as a Date", async () => {
    const a = recordingHub();
    const b = recordingHub();
    await Promise.all([start({ hub: a.hub }), start({ hub: b.hub })].map((relay) => relay.ready));
    const soldOut: MenuChange = {
      kind: 'availability',
      mealId: 7,
      availability: { status: 'sold_out', changedAt: new Date('2026-03-10T12:40:00.000Z') },
    };
    const undone: MenuChange = {
      kind: 'availability',
      mealId: 7,
      availability: { status: 'available', changedAt: null },
    };

    a.hub.publish(soldOut);
    a.hub.publish(undone);

    expect(await b.next(({ change }) => change.kind === 'availability', 'the availability on B')).toEqual({
      change: soldOut,
      origin: 'remote',
    });
    // Both, in order: an availability is not a rating, whose later change would stand for the earlier.
    await b.next(
      ({ change }) => change.kind === 'availability' && change.availability.status === 'available',
      'the second on B',
    );
    expect(b.heard.filter(({ change }) => change.kind === 'availability')).toEqual([
      { change: soldOut, origin: 'remote' },
      { change: undone, origin: 'remote' },
    ]);
  });

  it("sends the changes of one turn in one query, in order, a meal's rating changes as its last one, equal ones apart", async () => {
    const a = recordingHub();
    const b = recordingHub();
    const { sent, notifier: countingNotifier } = notifierCounting();
    const relays = [start({ hub: a.hub, notifier: countingNotifier }), start({ hub: b.hub })];
    await Promise.all(relays.map((relay) => relay.ready));
    const back: MenuChange = { ...rating, histogram: [0, 0, 0, 0, 2] };
    const other: MenuChange = { ...rating, mealId: rating.mealId + 1, histogram: [1, 0, 0, 0, 0] };

    // The meal's rating, another meal's, the first one's deletion: the first is superseded by the third.
    a.hub.publish(rating);
    a.hub.publish(other);
    a.hub.publish(back);
    a.hub.publish({ kind: 'menus' });
    await b.next(({ change }) => change.kind === 'menus', 'the last change on B');
    // The next turn: the same rating again, equal to one sent before, still arrives.
    a.hub.publish(rating);
    await b.next(() => b.heard.length === 4, 'the repeated rating on B');

    expect(b.heard).toEqual([other, back, { kind: 'menus' }, rating].map((change) => ({ change, origin: 'remote' })));
    expect(sent).toHaveLength(2);
    expect(sent[0]![1]).toHaveLength(3);
  });

  it('sends at most one query per interval: a change after a quiet moment at once, the next ones together after the wait', async () => {
    const a = recordingHub();
    const b = recordingHub();
    const { sent, notifier: countingNotifier } = notifierCounting();
    const timers = manualScheduler();
    let clock = 1_000;
    const relays = [
      start({
        hub: a.hub,
        notifier: countingNotifier,
        scheduler: timers.scheduler,
        now: () => clock,
        minSendIntervalMs: 20,
      }),
      start({ hub: b.hub }),
    ];
    await Promise.all(relays.map((relay) => relay.ready));
    const second: MenuChange = { ...rating, mealId: rating.mealId + 1 };
    const third: MenuChange = { ...rating, mealId: rating.mealId + 2 };

    a.hub.publish(rating);
    await b.next(() => b.heard.length === 1, 'the first change on B');
    expect(sent).toHaveLength(1);
    // 5 ms later: the next two wait for the rest of the interval, and then go in one query.
    clock += 5;
    a.hub.publish(second);
    await new Promise((resolve) => setImmediate(resolve));
    a.hub.publish(third);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(1);
    // The wait starts once A's query for the first change has answered (B may hear it before).
    await vi.waitFor(() => expect(timers.pending.map((timer) => timer.ms)).toEqual([15]));
    expect(sent).toHaveLength(1);
    clock += 15;
    timers.fire();
    await b.next(() => b.heard.length === 3, 'the two waiting changes on B');
    expect(sent).toHaveLength(2);
    expect(sent[1]![1]).toHaveLength(2);
    // After a quiet interval a change goes at once again.
    clock += 20;
    a.hub.publish(rating);
    await b.next(() => b.heard.length === 4, 'the change after the quiet interval on B');
    expect(timers.pending).toEqual([]);
    expect(b.heard.map(({ change }) => change)).toEqual([rating, second, third, rating]);
  });

  it('sends what waits for the interval when it stops', async () => {
    const a = recordingHub();
    const b = recordingHub();
    const timers = manualScheduler();
    const relays = [
      start({ hub: a.hub, scheduler: timers.scheduler, now: () => 0, minSendIntervalMs: 20 }),
      start({ hub: b.hub }),
    ];
    await Promise.all(relays.map((relay) => relay.ready));
    a.hub.publish(rating);
    await b.next(() => b.heard.length === 1, 'the first change on B');
    a.hub.publish({ kind: 'menus' });
    // B may hear the first change before A's query for it has answered: the wait starts once it has.
    await vi.waitFor(() => expect(timers.pending).toHaveLength(1));

    await relays[0]!.stop();
    expect(timers.pending).toEqual([]);
    expect(await b.next(({ change }) => change.kind === 'menus', 'the waiting change on B')).toEqual({
      change: { kind: 'menus' },
      origin: 'remote',
    });
  });

  it('keeps the last rating change of each meal, in order, and every other change', () => {
    const first: MenuChange = { ...rating, histogram: [1, 0, 0, 0, 0] };
    const second: MenuChange = { ...rating, histogram: [2, 0, 0, 0, 0] };
    const other: MenuChange = { ...rating, mealId: rating.mealId + 1 };
    expect(latestOfEachMeal([first, other, { kind: 'menus' }, second])).toEqual([other, { kind: 'menus' }, second]);
    expect(latestOfEachMeal([])).toEqual([]);
  });

  it('skips notifications it does not understand, and tells of them', async () => {
    const b = recordingHub();
    const log = eventLog();
    await start({ hub: b.hub, onEvent: log.onEvent }).ready;
    await pool.query(
      'SELECT pg_notify(\'meal_changes\', \'not json\'), pg_notify(\'meal_changes\', \'{"v":1,"from":"x","change":{"kind":"rating","mealId":1}}\')',
    );
    expect(await log.next('bad-payload')).toEqual({ type: 'bad-payload', payload: 'not json' });
    expect((await log.next('bad-payload')).payload).toContain('"mealId":1');
    expect(b.heard).toEqual([]);
  });

  it('reconnects after its connection is killed, and then publishes `menus` locally', async () => {
    const hub = recordingHub();
    const log = eventLog();
    const timers = manualScheduler();
    const relay = start({
      hub: hub.hub,
      onEvent: log.onEvent,
      scheduler: timers.scheduler,
      random: () => 0.5,
      retryBaseMs: 100,
    });
    await relay.ready;
    expect(await log.next('listening')).toEqual({ type: 'listening', reconnected: false });
    const [pid] = await listeningBackends();
    expect(pid).toBeDefined();

    await pool.query('SELECT pg_terminate_backend($1)', [pid]);
    expect(await log.next('disconnected')).toMatchObject({ attempt: 1, retryInMs: 50 });
    expect(timers.pending).toHaveLength(1);
    expect(hub.heard).toEqual([]);

    timers.fire();
    expect(await log.next('listening')).toEqual({ type: 'listening', reconnected: true });
    expect(hub.heard).toEqual([{ change: { kind: 'menus' }, origin: 'remote' }]);
    expect(await listeningBackends()).not.toContain(pid);

    // It listens again: another instance's change arrives.
    const other = recordingHub();
    await start({ hub: other.hub }).ready;
    other.hub.publish(rating);
    expect(await hub.next(({ change }) => change.kind === 'rating', 'the rating after the reconnect')).toEqual({
      change: rating,
      origin: 'remote',
    });
  });

  it('waits twice as long after each failed attempt, up to its maximum, with jitter', async () => {
    const unreachable = new URL(databaseUrl());
    unreachable.port = '1';
    const log = eventLog();
    const timers = manualScheduler();
    start({
      connectionString: unreachable.toString(),
      hub: recordingHub().hub,
      onEvent: log.onEvent,
      scheduler: timers.scheduler,
      random: () => 0.5,
      retryBaseMs: 100,
      retryMaxMs: 500,
    });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const event = await log.next('disconnected');
      expect(event.attempt).toBe(attempt);
      waits.push(event.retryInMs);
      expect(timers.fire()).toBe(event.retryInMs);
    }
    expect(waits).toEqual([50, 100, 200, 250, 250]);
  });

  it('closes its connection on stop, and stops sending', async () => {
    const a = recordingHub();
    const b = recordingHub();
    const relayA = start({ hub: a.hub });
    await relayA.ready;
    await start({ hub: b.hub }).ready;
    expect(await listeningBackends()).toHaveLength(2);

    await relayA.stop();
    await relayA.stop();
    for (let wait = 0; wait < 50 && (await listeningBackends()).length > 1; wait++) await sleep(100);
    expect(await listeningBackends()).toHaveLength(1);

    // A no longer sends: B hears only what comes after, from a third instance.
    a.hub.publish(rating);
    const c = recordingHub();
    await start({ hub: c.hub }).ready;
    c.hub.publish({ kind: 'menus' });
    await b.next(({ origin }) => origin === 'remote', "C's change on B");
    expect(b.heard).toEqual([{ change: { kind: 'menus' }, origin: 'remote' }]);
  });

  it('sends a change too long for NOTIFY as `menus`', async () => {
    const { payloadOf, payloadPrefixOf } = await import('../src/postgres-change-relay.js');
    const long = payloadOf('x'.repeat(7900), rating);
    expect(Buffer.byteLength(long)).toBeLessThan(8000);
    expect(JSON.parse(long)).toMatchObject({ change: { kind: 'menus' } });
    expect(JSON.parse(payloadOf('a', rating, 3))).toEqual({ v: 1, from: 'a', n: 3, change: rating });
    // The start a relay skips its own notifications by, whatever the payload and the instance's id.
    for (const [id, payload] of [
      ['a', payloadOf('a', rating, 3)],
      ['x'.repeat(7900), long],
      ['"quoted"\\', payloadOf('"quoted"\\', rating)],
    ] as const) {
      expect(payload.startsWith(payloadPrefixOf(id))).toBe(true);
    }
  });

  it("relays an erasure as the erased meals' figures, not as a change of every menu (issue 24)", async () => {
    const database = await openPostgres(databaseUrl(), { poolSize: 2 });
    try {
      const servedAt = new Date('2026-03-10T11:30:00Z');
      await database.adapters.meals.upsertMany([
        MealMother.servedAt(servedAt, { id: 41, name: 'Erased soup' }),
        MealMother.servedAt(servedAt, { id: 42, name: 'Kept stew' }),
      ]);
      await rateInPeriod(database.adapters.ratings, 'erased-user', MealMother.servedAt(servedAt, { id: 41 }), 5);
      await rateInPeriod(database.adapters.ratings, 'other-user', MealMother.servedAt(servedAt, { id: 41 }), 2);
      const a = recordingHub();
      const b = recordingHub();
      await Promise.all([start({ hub: a.hub }).ready, start({ hub: b.hub }).ready]);

      await new EraseUserData({ userData: database.adapters.userData, announce: a.hub.publish }).execute({
        userId: 'erased-user',
      });

      const heard = await b.next(({ origin }) => origin === 'remote', 'the erasure on B');
      expect(heard.change).toEqual({
        kind: 'rating',
        mealId: 41,
        histogram: [0, 1, 0, 0, 0],
        dish: { id: expect.any(Number), histogram: [0, 1, 0, 0, 0] },
      });
      expect(b.heard.map(({ change }) => change.kind)).toEqual(['rating']);
    } finally {
      await database.close();
    }
  });
});
