import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { createUseCases, FeedSourceError, maxMealsPerCanteenDay, type MenuDay } from '@canteen-meals/domain';
import type { FeedSource, MenuFeedReader, NextRun } from '@canteen-meals/domain/ports';
import { accepted } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';

// The feed use cases over the in-memory store, with the network and the feed format as simple fakes of their ports
// (the server's end-to-end test runs them against a real feed server) and a clock the test moves.
const day: MenuDay = {
  date: '2026-08-03',
  closed: false,
  items: [{ category: 'Suppen', name: 'Tagessuppe', notes: [], prices: {} }],
};
const everyDayAtSix: NextRun = (_schedule, _zone, after) => {
  const next = new Date(after);
  next.setUTCHours(6, 0, 0, 0);
  if (next <= after) next.setUTCDate(next.getUTCDate() + 1);
  return next;
};

function setup(source: FeedSource, db = new InMemoryDatabase({ defaultTimeZone: 'UTC' })) {
  const clock = new FixedClock('2026-08-01T05:00:00Z');
  const reader: MenuFeedReader = {
    read: (bytes) => ({ days: JSON.parse(Buffer.from(bytes).toString('utf8')) as MenuDay[] }),
  };
  const useCases = createUseCases(
    createInMemoryAdapters(db),
    clock,
    { start: '11:00', timeZone: 'UTC' },
    {
      feedSource: source,
      feedReader: reader,
      nextRun: everyDayAtSix,
    },
  );
  return { useCases, clock, db };
}

const canteen = { id: 'mensa', name: 'Mensa', timeZone: 'UTC', city: null, address: null, coordinates: null };
const feed = { name: 'full', url: 'https://mensa.example/full.xml', schedule: '0 6 * * *' };
const body = (days: MenuDay[]) => new TextEncoder().encode(JSON.stringify(days));

describe('RunFeed', () => {
  it('imports what a feed serves, remembers its validators, and takes a 304 as "not modified"', async () => {
    const asked: unknown[] = [];
    let answer: Awaited<ReturnType<FeedSource['fetch']>> = {
      status: 'fetched',
      body: body([day]),
      httpStatus: 200,
      etag: '"1"',
      lastModified: null,
    };
    const { useCases } = setup({ fetch: async (url, validators) => (asked.push({ url, ...validators }), answer) });
    await useCases.saveCanteen.execute({ ...canteen, feeds: [feed] });

    const first = await useCases.runFeed.execute({ canteenId: 'mensa', feedName: 'full' });
    expect(first).toMatchObject({
      ok: true,
      value: { outcome: 'imported', counts: { added: 1, changed: 0, unchanged: 0, withdrawn: 0 }, etag: '"1"' },
    });
    answer = { status: 'not_modified', httpStatus: 304 };
    const second = await useCases.runFeed.execute({ canteenId: 'mensa', feedName: 'full' });
    expect(second).toMatchObject({
      ok: true,
      value: { outcome: 'not_modified', httpStatus: 304, counts: { added: 1 } },
    });
    expect(asked).toEqual([
      { url: feed.url, etag: null, lastModified: null },
      { url: feed.url, etag: '"1"', lastModified: null },
    ]);
  });

  it('records a failure with its HTTP status and message and changes no menu', async () => {
    const { useCases } = setup({
      fetch: async () => Promise.reject(new FeedSourceError('https://mensa.example/full.xml: HTTP 503', 503)),
    });
    await useCases.saveCanteen.execute({ ...canteen, feeds: [feed] });
    const failed = await useCases.runFeed.execute({ canteenId: 'mensa', feedName: 'full' });
    expect(failed).toMatchObject({
      ok: true,
      value: {
        outcome: 'failed',
        httpStatus: 503,
        lastError: 'https://mensa.example/full.xml: HTTP 503',
        lastSuccessAt: null,
      },
    });
    expect(
      accepted(
        await useCases.getMeals.execute({ userId: 'u', canteenId: 'mensa', from: '2026-08-03', to: '2026-08-03' }),
      ).meals,
    ).toEqual([]);
  });

  it('records a refused import as a failure with its message, keeping the menu and the validators it had', async () => {
    const fetched = { status: 'fetched' as const, body: body([day]), httpStatus: 200, etag: '"2"', lastModified: null };
    const { useCases } = setup({ fetch: async () => fetched });
    await useCases.saveCanteen.execute({ ...canteen, feeds: [feed] });
    const full = Array.from({ length: maxMealsPerCanteenDay }, (_, index) => ({
      id: index + 1,
      name: `Meal ${index + 1}`,
      servedAt: new Date('2026-08-03T12:00:00Z'),
      rateable: true,
      canteenId: 'mensa',
    }));
    accepted(await useCases.upsertMeals.execute(full));

    const failed = await useCases.runFeed.execute({ canteenId: 'mensa', feedName: 'full' });

    expect(failed).toEqual({
      ok: true,
      value: expect.objectContaining({
        outcome: 'failed',
        httpStatus: 200, // the answer came; its menu was refused
        lastError: 'The canteen "mensa" would serve 501 meals on 2026-08-03; a day holds at most 500.',
        lastSuccessAt: null,
        etag: null,
      }),
    });
    const menu = accepted(
      await useCases.getMeals.execute({ userId: 'u', canteenId: 'mensa', from: '2026-08-03', to: '2026-08-03' }),
    );
    expect(menu.meals.map((reading) => reading.meal.name)).not.toContain('Tagessuppe');
  });

  it('refuses an unknown canteen or feed', async () => {
    const { useCases } = setup({ fetch: async () => Promise.reject(new Error('not called')) });
    expect(await useCases.runFeed.execute({ canteenId: 'nowhere', feedName: 'full' })).toMatchObject({
      ok: false,
      refusal: { code: 'canteen_not_found' },
    });
    expect(await useCases.runFeed.execute({ canteenId: 'default', feedName: 'full' })).toMatchObject({
      ok: false,
      refusal: { code: 'feed_not_found' },
    });
  });
});

describe('RunDueFeeds', () => {
  it('fetches a feed never fetched at once, then only when its schedule has fired', async () => {
    let fetches = 0;
    const { useCases, clock } = setup({
      fetch: async () => (
        fetches++, { status: 'fetched', body: body([day]), httpStatus: 200, etag: null, lastModified: null }
      ),
    });
    await useCases.saveCanteen.execute({ ...canteen, feeds: [feed] });
    await useCases.runDueFeeds.execute();
    expect(fetches).toBe(1);
    clock.set('2026-08-01T05:59:59Z');
    await useCases.runDueFeeds.execute();
    expect(fetches).toBe(1);
    clock.set('2026-08-01T06:00:00Z');
    await useCases.runDueFeeds.execute();
    expect(fetches).toBe(2);
  });

  it('fetches a due feed once when two instances sharing the store find it due together', async () => {
    let fetches = 0;
    const source: FeedSource = {
      fetch: async () => (
        fetches++, { status: 'fetched', body: body([day]), httpStatus: 200, etag: null, lastModified: null }
      ),
    };
    const db = new InMemoryDatabase({ defaultTimeZone: 'UTC' });
    const [one, two] = [setup(source, db), setup(source, db)];
    await one.useCases.saveCanteen.execute({ ...canteen, feeds: [feed] });
    await Promise.all([one.useCases.runDueFeeds.execute(), two.useCases.runDueFeeds.execute()]);
    expect(fetches).toBe(1);
  });

  it('lets a run that outlived its claim commit nothing when a later run was claimed meanwhile', async () => {
    const db = new InMemoryDatabase({ defaultTimeZone: 'UTC' });
    let release: () => void = () => {};
    const slow: FeedSource = {
      fetch: () =>
        new Promise((resolve) => {
          release = () =>
            resolve({
              status: 'fetched',
              body: body([{ ...day, items: [{ ...day.items[0]!, name: 'Old soup' }] }]),
              httpStatus: 200,
              etag: null,
              lastModified: null,
            });
        }),
    };
    const fast: FeedSource = {
      fetch: async () => ({ status: 'fetched', body: body([day]), httpStatus: 200, etag: null, lastModified: null }),
    };
    const [one, two] = [setup(slow, db), setup(fast, db)];
    await one.useCases.saveCanteen.execute({ ...canteen, feeds: [feed] });
    const stuck = one.useCases.runDueFeeds.execute();
    await new Promise((resolve) => setImmediate(resolve));
    two.clock.set('2026-08-02T06:00:00Z'); // the next run is due: the other instance claims and completes it
    await two.useCases.runDueFeeds.execute();
    release();
    await stuck;
    const menu = accepted(
      await two.useCases.getMeals.execute({ userId: 'u', canteenId: 'mensa', from: '2026-08-03', to: '2026-08-03' }),
    );
    expect(menu.meals.map((reading) => reading.meal.name)).toEqual(['Tagessuppe']);
  });

  it('imports when the scheduler of the same process joins a fetch an admin started before the run was due', async () => {
    let release: () => void = () => {};
    const slow: FeedSource = {
      fetch: () =>
        new Promise((resolve) => {
          release = () =>
            resolve({ status: 'fetched', body: body([day]), httpStatus: 200, etag: null, lastModified: null });
        }),
    };
    const { useCases, clock } = setup(slow);
    await useCases.saveCanteen.execute({ ...canteen, feeds: [feed] });
    const manual = useCases.runFeed.execute({ canteenId: 'mensa', feedName: 'full' }); // its attempt: 05:00
    await new Promise((resolve) => setImmediate(resolve));
    clock.set('2026-08-01T06:00:00Z');
    const scheduled = useCases.runDueFeeds.execute(); // claims the 06:00 run and joins the admin's fetch
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect(await manual).toMatchObject({ ok: true, value: { outcome: 'imported' } });
    expect((await scheduled).map((state) => state.outcome)).toEqual(['imported']);
  });

  it("stores the attempt of an admin's fetch before fetching: a run that never finished (the process died) waits for its next due time after a restart", async () => {
    const db = new InMemoryDatabase({ defaultTimeZone: 'UTC' });
    const fetched: string[] = [];
    const hanging: FeedSource = { fetch: () => (fetched.push('before the restart'), new Promise(() => {})) };
    const before = setup(hanging, db);
    await before.useCases.saveCanteen.execute({ ...canteen, feeds: [feed] });
    void before.useCases.runFeed.execute({ canteenId: 'mensa', feedName: 'full' }); // 05:00, never finishes
    await new Promise((resolve) => setImmediate(resolve));

    const after = setup(
      {
        fetch: async () => (
          fetched.push(`after, at ${after.clock.now().toISOString()}`),
          { status: 'fetched', body: body([day]), httpStatus: 200, etag: null, lastModified: null }
        ),
      },
      db,
    );
    after.clock.set('2026-08-01T05:01:00Z');
    expect(await after.useCases.runDueFeeds.execute()).toEqual([]);
    const [listed] = accepted(await after.useCases.listFeeds.execute({ canteenId: 'mensa' }));
    expect(listed).toMatchObject({
      state: { lastAttemptAt: new Date('2026-08-01T05:00:00Z'), outcome: null },
      nextRunAt: new Date('2026-08-01T06:00:00Z'),
    });
    after.clock.set('2026-08-01T06:00:00Z');
    await after.useCases.runDueFeeds.execute();
    expect(fetched).toEqual(['before the restart', 'after, at 2026-08-01T06:00:00.000Z']);
  });

  it('records a failure of the service itself without its message, and passes the error on', async () => {
    const { useCases, db } = setup({
      fetch: async () => ({ status: 'fetched', body: body([day]), httpStatus: 200, etag: null, lastModified: null }),
    });
    await useCases.saveCanteen.execute({ ...canteen, feeds: [feed] });
    db.mealSources.set = () => {
      throw new Error('SQLITE_IOERR: disk I/O error at /var/lib/meals.db');
    };
    await expect(useCases.runFeed.execute({ canteenId: 'mensa', feedName: 'full' })).rejects.toThrow(/SQLITE_IOERR/);
    const [state] = accepted(await useCases.listFeeds.execute({ canteenId: 'mensa' }));
    expect(state?.state).toMatchObject({
      outcome: 'failed',
      lastError: 'the import failed inside the service; its log says why',
    });
  });
});
