import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import {
  createUseCases,
  feedRetryDelayMs,
  FeedSourceError,
  maxFeedErrorLength,
  BoundedRunner,
  runBounded,
  type FeedState,
  type MenuDay,
} from '@canteen-meals/domain';
import type { FeedSource, FeedUrlCheck, NextRun } from '@canteen-meals/domain/ports';
import { accepted } from '@canteen-meals/repository-contract';
import { describe, expect, it } from 'vitest';

// Feeds that recover and feeds that cannot hold up the others: retries with backoff after a
// failure, a feed moved to another URL starting afresh, the outbound rule at the PUT, and runs a few at a time with
// a slot per host. The network is a fake of the FeedSource port; time is a clock the test moves.
const day: MenuDay = {
  date: '2026-08-03',
  closed: false,
  items: [{ category: 'Suppen', name: 'Tagessuppe', notes: [], prices: {} }],
};
const body = new TextEncoder().encode(JSON.stringify([day]));
const fetched = { status: 'fetched' as const, body, httpStatus: 200, etag: '"1"', lastModified: null };
const everyDayAtSix: NextRun = (_schedule, _zone, after) => {
  const next = new Date(after);
  next.setUTCHours(6, 0, 0, 0);
  if (next <= after) next.setUTCDate(next.getUTCDate() + 1);
  return next;
};
const canteen = { id: 'mensa', name: 'Mensa', timeZone: 'UTC', city: null, address: null, coordinates: null };
const feed = { name: 'full', url: 'https://mensa.example/full.xml', schedule: '0 6 * * *' };

function setup(
  source: FeedSource,
  options: { checkUrl?: FeedUrlCheck; onFeedRan?: (state: FeedState) => void; deadlineMs?: number } = {},
) {
  const clock = new FixedClock('2026-08-01T05:00:00Z');
  const useCases = createUseCases(
    createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: 'UTC' })),
    clock,
    { start: '11:00', timeZone: 'UTC' },
    {
      feedSource: source,
      feedReader: { read: (bytes) => ({ days: JSON.parse(Buffer.from(bytes).toString('utf8')) as MenuDay[] }) },
      nextRun: everyDayAtSix,
      ...(options.checkUrl === undefined ? {} : { checkUrl: options.checkUrl }),
      ...(options.onFeedRan === undefined ? {} : { onFeedRan: options.onFeedRan }),
      ...(options.deadlineMs === undefined ? {} : { scheduledFetchDeadlineMs: options.deadlineMs }),
    },
  );
  return { useCases, clock };
}

/** A source that fails while `failing` is set, and counts its calls with the validators it was given. */
function flakySource() {
  const calls: { url: string; etag: string | null }[] = [];
  const control = { failing: true };
  const source: FeedSource = {
    fetch: async (url, { etag }) => {
      calls.push({ url, etag });
      if (control.failing) throw new FeedSourceError(`${url}: HTTP 503`, 503);
      return fetched;
    },
  };
  return { source, calls, control };
}

/**
 * Hangs every fetch of hanging.example until its signal ends it, as the outbound adapter does, or the test fails it
 * (`fail`); answers the others at once. Records every URL asked for.
 */
function hangingHost() {
  const asked: string[] = [];
  const pending = new Map<string, () => void>();
  const source: FeedSource = {
    fetch: (url, _validators, options) => {
      asked.push(url);
      if (!url.startsWith('https://hanging.example/')) return Promise.resolve(fetched);
      return new Promise((_, reject) => {
        const end = (why: string) => () => {
          pending.delete(url);
          reject(new FeedSourceError(`${url}: ${why}`));
        };
        pending.set(url, end('the host closed the connection'));
        options?.signal?.addEventListener('abort', end("the run's deadline passed"), { once: true });
      });
    },
  };
  return { source, asked, fail: (url: string) => pending.get(url)!() };
}

describe('a failed feed is retried at the next checks, with backoff', () => {
  it('retries 30 s after the first failure, then 60 s, 120 s ..., and keeps to its schedule after a success', async () => {
    const { source, calls, control } = flakySource();
    const { useCases, clock } = setup(source);
    await useCases.saveCanteen.execute({ ...canteen, feeds: [feed] });
    const start = clock.now().getTime();
    const checkAt = async (offsetMs: number) => {
      clock.set(start + offsetMs);
      await useCases.runDueFeeds.execute();
      return calls.length;
    };

    expect(await checkAt(0)).toBe(1); // never fetched: at once; it fails
    expect(accepted(await useCases.listFeeds.execute({ canteenId: 'mensa' }))[0]?.nextRunAt).toEqual(
      new Date(start + 30_000),
    );
    expect(await checkAt(29_999)).toBe(1);
    expect(await checkAt(30_000)).toBe(2); // the first retry; it fails again
    expect(await checkAt(30_000 + 59_999)).toBe(2);
    expect(await checkAt(90_000)).toBe(3); // 60 s after the second failure
    expect(await checkAt(90_000 + 119_999)).toBe(3);
    control.failing = false;
    expect(await checkAt(210_000)).toBe(4); // 120 s after the third; it succeeds
    const [summary] = accepted(await useCases.listFeeds.execute({ canteenId: 'mensa' }));
    expect(summary?.state).toMatchObject({ outcome: 'imported', failures: 0 });
    expect(summary?.nextRunAt).toEqual(new Date('2026-08-01T06:00:00Z'));
    expect(await checkAt(210_000 + 30_000)).toBe(4); // no retry after a success: the schedule decides
  });

  it("doubles the wait up to the schedule's interval, and never waits past the schedule's next firing", async () => {
    const hour = 3_600_000;
    expect([1, 2, 3, 4, 7, 8, 60].map((failures) => feedRetryDelayMs(failures, hour))).toEqual([
      30_000,
      60_000,
      120_000,
      240_000,
      1_920_000,
      hour,
      hour,
    ]);

    const { source, calls } = flakySource();
    const { useCases, clock } = setup(source);
    await useCases.saveCanteen.execute({ ...canteen, feeds: [feed] });
    clock.set('2026-08-01T05:59:50Z');
    await useCases.runDueFeeds.execute(); // fails 10 s before the schedule fires: the schedule comes before the retry
    clock.set('2026-08-01T06:00:00Z');
    await useCases.runDueFeeds.execute();
    expect(calls).toHaveLength(2);
  });

  it('bounds the error text it keeps: a 4 MB message is cut, saying so', async () => {
    const { useCases } = setup({
      fetch: async () => Promise.reject(new FeedSourceError(`HTTP 500: ${'x'.repeat(4_000_000)}`, 500)),
    });
    await useCases.saveCanteen.execute({ ...canteen, feeds: [feed] });
    const state = accepted(await useCases.runFeed.execute({ canteenId: 'mensa', feedName: 'full' }));
    expect(state.lastError).toHaveLength(maxFeedErrorLength);
    expect(state.lastError).toMatch(/^HTTP 500: x+ … \(\d+ more characters\)$/);
  });
});

describe('a PUT that moves a feed to another URL', () => {
  it('forgets the old state: no failures, no validators of the old URL, due at the next check', async () => {
    const { source, calls, control } = flakySource();
    control.failing = false;
    const { useCases, clock } = setup(source);
    await useCases.saveCanteen.execute({ ...canteen, feeds: [feed] });
    await useCases.runDueFeeds.execute();
    clock.advance(60_000);
    // The same URL again (another field changed): the state stays, nothing is due before 06:00.
    await useCases.saveCanteen.execute({ ...canteen, name: 'Mensa Nord', feeds: [feed] });
    await useCases.runDueFeeds.execute();
    expect(calls).toHaveLength(1);

    const moved = { ...feed, url: 'https://new.example/full.xml' };
    await useCases.saveCanteen.execute({ ...canteen, feeds: [moved] });
    expect(accepted(await useCases.listFeeds.execute({ canteenId: 'mensa' }))[0]).toMatchObject({
      state: { lastAttemptAt: null, outcome: null, etag: null, failures: 0 },
      nextRunAt: clock.now(),
    });
    await useCases.runDueFeeds.execute();
    expect(calls.at(-1)).toEqual({ url: moved.url, etag: null });
  });
});

describe('the outbound address rule at the PUT', () => {
  it('refuses a feed whose URL the rule refuses, naming the feed, and saves nothing', async () => {
    const checkUrl: FeedUrlCheck = (url) =>
      url.includes('127.0.0.1')
        ? 'must reach a public address, not a loopback one (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)'
        : undefined;
    const { useCases } = setup(flakySource().source, { checkUrl });
    const refused = await useCases.saveCanteen.execute({
      ...canteen,
      feeds: [feed, { ...feed, name: 'today', url: 'http://127.0.0.1:8080/today.xml' }],
    });
    expect(refused).toEqual({
      ok: false,
      refusal: {
        code: 'invalid_canteen',
        message:
          'feeds[1]: the url of the feed "today" must reach a public address, not a loopback one (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)',
      },
    });
    expect(await useCases.getCanteen.execute('mensa')).toMatchObject({ ok: false });
  });
});

describe('a scheduled run fetches a few feeds at once, one per host', () => {
  it("does not let a hanging host delay another canteen's feed, and leaves the hanging host's second feed for later", async () => {
    const { source, asked } = hangingHost();
    let fastImported: () => void = () => {};
    const fastRan = new Promise<void>((resolve) => (fastImported = resolve));
    const { useCases } = setup(source, {
      onFeedRan: (state) => state.canteenId === 'zeta' && state.outcome === 'imported' && fastImported(),
    });
    // The hanging canteen comes first in the list, so a run one feed after another would never reach the other.
    await useCases.saveCanteen.execute({
      ...canteen,
      id: 'alpha',
      feeds: [
        { ...feed, url: 'https://hanging.example/full.xml' },
        { ...feed, name: 'today', url: 'https://HANGING.example/today.xml' },
      ],
    });
    await useCases.saveCanteen.execute({
      ...canteen,
      id: 'zeta',
      feeds: [{ ...feed, url: 'https://zeta.example/full.xml' }],
    });

    const deadline = new AbortController();
    const run = useCases.runDueFeeds.execute({ signal: deadline.signal });
    await fastRan;
    // One slot per host: the hanging host's second feed waits while its first hangs.
    expect(asked).toEqual(['https://hanging.example/full.xml', 'https://zeta.example/full.xml']);

    deadline.abort();
    const ran = await run;
    expect(ran.map((state) => [state.canteenId, state.feedName, state.outcome]).sort()).toEqual([
      ['alpha', 'full', 'failed'],
      ['zeta', 'full', 'imported'],
    ]);
    // Not started before the deadline: not claimed, so due again at the next check.
    const alpha = accepted(await useCases.listFeeds.execute({ canteenId: 'alpha' }));
    expect(alpha.find((summary) => summary.feed.name === 'today')?.state.lastAttemptAt).toBeNull();
    expect(asked).toHaveLength(2);
  });
});

describe('runs that overlap (issue 39)', () => {
  const flush = () => new Promise((resolve) => setImmediate(resolve));

  it('fetches at a second run a canteen saved while the first run holds a hanging host, and starts nothing twice', async () => {
    const { source, asked } = hangingHost();
    const { useCases, clock } = setup(source);
    const hanging = ['one', 'two', 'three'].map((name) => ({
      ...feed,
      name,
      url: `https://hanging.example/${name}.xml`,
    }));
    await useCases.saveCanteen.execute({ ...canteen, id: 'alpha', feeds: hanging });
    const firstDeadline = new AbortController();
    const first = useCases.runDueFeeds.execute({ signal: firstDeadline.signal });
    await flush();
    expect(asked).toEqual(['https://hanging.example/one.xml']);

    await useCases.saveCanteen.execute({
      ...canteen,
      id: 'zeta',
      feeds: [{ ...feed, url: 'https://zeta.example/full.xml' }],
    });
    clock.advance(30_000);
    const second = await useCases.runDueFeeds.execute({ signal: new AbortController().signal });
    expect(second.map((state) => [state.canteenId, state.outcome])).toEqual([['zeta', 'imported']]);
    // alpha's feeds are the first run's: the second took none of them, so the host was asked once.
    expect(asked).toEqual(['https://hanging.example/one.xml', 'https://zeta.example/full.xml']);

    firstDeadline.abort();
    expect((await first).map((state) => [state.feedName, state.outcome])).toEqual([['one', 'failed']]);
  });

  it('keeps the bounds across batches: a run scheduled later waits for a slot that an earlier one holds', async () => {
    const runner = new BoundedRunner({ concurrency: 2, perKey: 1 });
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    const run = (name: string) => () => {
      started.push(name);
      return new Promise<string>((resolve) => gates.set(name, () => resolve(name)));
    };
    const first = [runner.schedule('x', run('x1')), runner.schedule('y', run('y1'))];
    await flush();
    const later = [runner.schedule('z', run('z1')), runner.schedule('x', run('x2'))];
    await flush();
    expect(started).toEqual(['x1', 'y1']); // both slots taken
    gates.get('x1')!();
    await flush();
    expect(started).toEqual(['x1', 'y1', 'z1']); // x's slot freed a slot in all: z1 was first in line
    gates.get('y1')!();
    await flush();
    expect(started).toEqual(['x1', 'y1', 'z1', 'x2']);
    for (const name of ['z1', 'x2']) gates.get(name)!();
    expect(await Promise.all([...first, ...later])).toEqual(['x1', 'y1', 'z1', 'x2']);
  });

  it('ends a scheduled fetch at the first run its deadline has passed, counted from its own start on the clock', async () => {
    const { source, asked } = hangingHost();
    const ran: FeedState[] = [];
    const { useCases, clock } = setup(source, { deadlineMs: 60_000, onFeedRan: (state) => ran.push(state) });
    const hanging = ['one', 'two'].map((name) => ({ ...feed, name, url: `https://hanging.example/${name}.xml` }));
    await useCases.saveCanteen.execute({ ...canteen, id: 'alpha', feeds: hanging });
    const outcomes = () => ran.map((state) => [state.feedName, state.outcome, state.lastAttemptAt?.toISOString()]);
    const start = clock.now().getTime();
    // A run answers when its feeds end; a later run may take one again (a failed feed's retry), so none is awaited.
    const stopping = new AbortController();
    const runs: Promise<readonly FeedState[]>[] = [];
    const runAt = async (offsetMs: number) => {
      clock.set(start + offsetMs);
      runs.push(useCases.runDueFeeds.execute({ signal: stopping.signal }));
      await flush();
    };
    await runAt(0);

    await runAt(59_999);
    expect(outcomes()).toEqual([]);
    await runAt(60_000); // one's deadline: it ends, and two, which waited for the host's slot, starts now
    expect(outcomes()).toEqual([['one', 'failed', '2026-08-01T05:00:00.000Z']]);
    expect(asked.filter((url) => url.endsWith('/two.xml'))).toHaveLength(1);
    await runAt(60_000 + 59_999); // two's own deadline has not passed, though the first run began 120 s ago
    expect(outcomes().map(([name]) => name)).toEqual(['one']);
    await runAt(120_000);
    expect(outcomes()).toContainEqual(['two', 'failed', '2026-08-01T05:01:00.000Z']);
    expect((await runs[0]!).map((state) => state.feedName)).toEqual(['one', 'two']);
    stopping.abort();
    await Promise.all(runs);
  });

  it('leaves a feed that waited for a slot when its URL changed meanwhile: the new URL keeps its claim', async () => {
    const { source, asked, fail } = hangingHost();
    const { useCases } = setup(source);
    const hanging = ['one', 'two'].map((name) => ({ ...feed, name, url: `https://hanging.example/${name}.xml` }));
    await useCases.saveCanteen.execute({ ...canteen, id: 'alpha', feeds: hanging });
    const stopping = new AbortController();
    const first = useCases.runDueFeeds.execute({ signal: stopping.signal });
    await flush(); // one hangs, two waits for the host's slot

    const moved = { ...feed, name: 'two', url: 'https://zeta.example/two.xml' };
    await useCases.saveCanteen.execute({ ...canteen, id: 'alpha', feeds: [hanging[0]!, moved] });
    fail('https://hanging.example/one.xml'); // the slot frees: the old two's turn
    for (let turn = 0; turn < 3; turn += 1) await flush();
    expect(asked).toEqual(['https://hanging.example/one.xml']);
    stopping.abort();
    expect((await first).map((state) => [state.feedName, state.outcome])).toEqual([['one', 'failed']]);
    const two = async () =>
      accepted(await useCases.listFeeds.execute({ canteenId: 'alpha' })).find((summary) => summary.feed.name === 'two');
    expect((await two())?.state.lastAttemptAt).toBeNull(); // still due, at its new URL

    await useCases.runDueFeeds.execute();
    expect(asked).toContain('https://zeta.example/two.xml');
    expect((await two())?.state.outcome).toBe('imported');
  });
});

describe('runBounded', () => {
  it('keeps to both bounds, waits for every run, and throws the first failure after the others ended', async () => {
    const gates = new Map<string, () => void>();
    let inFlight = 0;
    let most = 0;
    const perKey = new Map<string, number>();
    const items = ['a1', 'a2', 'a3', 'b1', 'c1', 'd1', 'e1'];
    const all = runBounded(
      items,
      (item) => item[0]!,
      async (item) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        perKey.set(item[0]!, (perKey.get(item[0]!) ?? 0) + 1);
        expect(perKey.get(item[0]!)).toBeLessThanOrEqual(2);
        await new Promise<void>((resolve) => gates.set(item, resolve));
        inFlight -= 1;
        perKey.set(item[0]!, perKey.get(item[0]!)! - 1);
        if (item === 'b1') throw new Error('b1 failed');
        return item;
      },
      { concurrency: 3, perKey: 2 },
    );
    const settled = all.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    const flush = () => new Promise((resolve) => setImmediate(resolve));
    await flush();
    expect([...gates.keys()]).toEqual(['a1', 'a2', 'b1']); // a3 waits for its key, c1 for a slot
    // Let the runs end one at a time, the earliest started first, until none is left.
    for (let next = [...gates.entries()][0]; next !== undefined; next = [...gates.entries()][0]) {
      gates.delete(next[0]);
      next[1]();
      await flush();
    }
    expect(await settled).toBe('b1 failed');
    expect(most).toBe(3);
  });
});
