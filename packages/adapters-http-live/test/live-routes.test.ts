import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { createUseCases, type GetPublicMenu, type MenuDays } from '@canteen-meals/domain';
import { MealMother } from '@canteen-meals/repository-contract';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildHttpApp,
  createHmacTokenVerifier,
  httpUseCasesOf,
  type LiveScheduler,
  type LiveStats,
  signHmacToken,
} from '@canteen-meals/adapters-http';
import { type LiveOptions, livePlugin, sseSubscriber } from '../src/index.js';

const secret = 'route-test-secret-of-at-least-32-bytes!!';
const now = new Date('2026-03-10T12:00:00Z');
const timeZone = 'Europe/Berlin';

// The canteen `default` serves meals 1 (open) and 2 (not rateable) today; `bistro` serves meal 10 today.
const today = '2026-03-10';
const livePath = `/api/v1/live?canteen=default&date=${today}`;

/** Timers that fire only when a test moves time on: no test sleeps for a window or a heartbeat. */
class FakeScheduler implements LiveScheduler {
  private at = 0;
  private nextId = 1;
  private readonly timers = new Map<number, { readonly due: number; readonly callback: () => void }>();

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { due: this.at + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Fires, in order, every timer due within `ms` (those they set included). */
  advance(ms: number): void {
    const end = this.at + ms;
    for (;;) {
      const due = [...this.timers].filter(([, timer]) => timer.due <= end).sort(([, a], [, b]) => a.due - b.due)[0];
      if (due === undefined) break;
      this.timers.delete(due[0]);
      this.at = due[1].due;
      due[1].callback();
    }
    this.at = end;
  }
}

interface Frame {
  readonly id?: string;
  readonly event?: string;
  readonly data?: any;
  readonly comment?: string;
}

/** A client reading a stream as it comes: frames in order, each awaited (an error when the stream ends first). */
class StreamClient {
  readonly frames: Frame[] = [];
  private read = 0;
  private buffer = '';
  private wake: (() => void) | null = null;
  private closed = false;
  readonly ended: Promise<void>;

  constructor(readonly response: IncomingMessage) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\n\n')) !== -1) {
        this.frames.push(frameOf(this.buffer.slice(0, end)));
        this.buffer = this.buffer.slice(end + 2);
      }
      this.wake?.();
    });
    this.ended = new Promise((resolve) =>
      response.on('close', () => {
        this.closed = true;
        this.wake?.();
        resolve();
      }),
    );
  }

  /**
   * The next frame, when it comes: no deadline of its own (under load a frame may take seconds; the test's bounds it).
   */
  async next(): Promise<Frame> {
    while (this.read >= this.frames.length) {
      if (this.closed) throw new Error(`the stream ended before the next frame; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    return this.frames[this.read++]!;
  }

  /** Waits a moment and answers the frames that arrived unread: what a test expects to be nothing. */
  async unread(waitMs = 100): Promise<Frame[]> {
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    const rest = this.frames.slice(this.read);
    this.read = this.frames.length;
    return rest;
  }

  close(): void {
    this.response.destroy();
  }
}

function frameOf(text: string): Frame {
  const frame: Record<string, unknown> = {};
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) frame.comment = line.slice(1).trim();
    const [, field, value] = /^(id|event|data): (.*)$/.exec(line) ?? [];
    if (field !== undefined) frame[field] = field === 'data' ? JSON.parse(value!) : value;
  }
  return frame;
}

const apps: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function liveServer(live: Partial<LiveOptions> = {}, http: { readonly trustProxy?: boolean } = {}) {
  const scheduler = new FakeScheduler();
  let registry: LiveStats | undefined;
  // Every menu read of the live streams goes through this spy on the read port: tests count reads, not time.
  const menuReads: MenuDays[] = [];
  let readMenu: GetPublicMenu | undefined;
  const getPublicMenu = {
    execute: (days: MenuDays) => {
      menuReads.push(days);
      return readMenu!.execute(days);
    },
  } as GetPublicMenu;
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: timeZone }));
  // adapters-http's test menu: meals 1 and 2 served today, 3 tomorrow, 4 a month ago.
  await adapters.meals.upsertMany([
    MealMother.servedToday(now, { id: 1, name: 'Open meal' }),
    MealMother.servedToday(now, { id: 2, name: 'Salad bar', rateable: false }),
    MealMother.servedTomorrow(now, { id: 3, name: 'Tomorrow' }),
    MealMother.servedDaysAgo(now, 30, { id: 4, name: 'Last month' }),
  ]);
  const useCases = createUseCases(adapters, new FixedClock(now), { start: '11:00', timeZone });
  const app = await buildHttpApp({
    ...http,
    useCases: httpUseCasesOf(useCases),
    verifyToken: createHmacTokenVerifier({ secret }),
    plugins: [
      livePlugin({
        useCases: { getPublicMenu, menuChanges: useCases.menuChanges },
        live: { scheduler, observe: (built) => (registry = built), ...live },
      }),
    ],
  });
  readMenu = useCases.getPublicMenu;
  apps.push(app);
  const admin = signHmacToken(secret, { sub: 'admin', scope: 'meals:write' });
  const created = await app.inject({
    method: 'PUT',
    url: '/api/v1/admin/canteens/bistro',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'Bistro', timezone: 'Europe/Berlin' }),
  });
  expect(created.statusCode, created.body).toBeLessThan(300);
  await adapters.meals.upsertMany([MealMother.servedToday(now, { id: 10, name: 'Bistro meal', canteenId: 'bistro' })]);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;

  const open = (path = livePath, headers: Record<string, string> = {}): Promise<IncomingMessage> =>
    new Promise<IncomingMessage>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path, headers }, resolve).on('error', reject);
    });
  const stream = async (path = livePath, headers: Record<string, string> = {}) => {
    const response = await open(path, headers);
    expect(response.statusCode).toBe(200);
    return new StreamClient(response);
  };
  /** A refusal: its status and envelope. */
  const refused = async (path = livePath, headers: Record<string, string> = {}) => {
    const response = await open(path, headers);
    let body = '';
    response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    await new Promise((resolve) => response.on('end', resolve));
    return { status: response.statusCode, headers: response.headers, body: JSON.parse(body) };
  };
  const rate = async (user: string, mealId: number, rating: number) => {
    const answer = await app.inject({
      method: 'POST',
      url: '/api/v1/rate-meal',
      headers: { authorization: `Bearer ${signHmacToken(secret, { sub: user })}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ meal_id: mealId, rating }),
    });
    expect(answer.statusCode, answer.body).toBe(200);
  };
  const eraseMyData = async (user: string) => {
    const answer = await app.inject({
      method: 'DELETE',
      url: '/api/v1/me/data',
      headers: { authorization: `Bearer ${signHmacToken(secret, { sub: user })}` },
    });
    expect(answer.statusCode, answer.body).toBe(200);
  };
  const archive = async (canteenId: string) => {
    const answer = await app.inject({
      method: 'DELETE',
      url: `/api/v1/admin/canteens/${canteenId}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(answer.statusCode, answer.body).toBe(200);
  };
  return {
    app,
    adapters,
    scheduler,
    stream,
    refused,
    rate,
    eraseMyData,
    archive,
    menuReads,
    registry: () => registry!,
  };
}

describe('GET /api/v1/live: statistics as Server-Sent Events', () => {
  it('begins with a snapshot of every meal of the day, with the stream headers and the security headers', async () => {
    const { stream } = await liveServer();
    const client = await stream();
    expect(client.response.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
      'x-content-type-options': 'nosniff',
    });
    expect(client.response.headers['x-request-id']).toBeDefined();
    const snapshot = await client.next();
    expect(snapshot.event).toBe('snapshot');
    expect(snapshot.id).toMatch(/^[\w-]+\.0$/);
    expect(snapshot.data.meals.map((meal: { meal_id: number }) => meal.meal_id)).toEqual([1, 2]);
    expect(snapshot.data.meals[0]).toMatchObject({
      meal_id: 1,
      rating_count: 0,
      rating_average: null,
      rating_median: null,
      rating_distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 },
      dish: { rating_count: 0 },
    });
  });

  it('sends a stats event with the new figures when the window of a rating closes', async () => {
    const { stream, rate, scheduler } = await liveServer();
    const client = await stream();
    await client.next();
    await rate('alice', 1, 4);
    expect(await client.unread(50)).toEqual([]);
    scheduler.advance(250);
    const stats = await client.next();
    expect(stats.event).toBe('stats');
    expect(stats.id).toMatch(/\.1$/);
    expect(stats.data).toMatchObject({
      meal_id: 1,
      rating_count: 1,
      rating_average: 4,
      rating_median: 4,
      rating_distribution: { '1': 0, '2': 0, '3': 0, '4': 1, '5': 0 },
      dish: { rating_count: 1, rating_average: 4 },
    });
  });

  it('coalesces the ratings of one window into one event with the last figures; the next window sends the next', async () => {
    const { stream, rate, scheduler } = await liveServer();
    const client = await stream();
    await client.next();
    await rate('alice', 1, 1);
    await rate('bob', 1, 2);
    await rate('carol', 1, 5);
    scheduler.advance(250);
    const stats = await client.next();
    expect(stats.data).toMatchObject({ meal_id: 1, rating_count: 3, rating_distribution: { '1': 1, '2': 1, '5': 1 } });
    expect(await client.unread()).toEqual([]);

    // Within the next window, nothing goes out before it closes.
    await rate('dave', 1, 5);
    scheduler.advance(249);
    expect(await client.unread(50)).toEqual([]);
    scheduler.advance(1);
    expect((await client.next()).data).toMatchObject({ meal_id: 1, rating_count: 4 });
  });

  it("sends nothing for a rating of another canteen's meal", async () => {
    const { stream, rate, scheduler } = await liveServer();
    const client = await stream();
    await client.next();
    await rate('alice', 10, 5);
    scheduler.advance(1000);
    expect(await client.unread()).toEqual([]);
    const bistro = await stream(`/api/v1/live?canteen=bistro&date=${today}`);
    expect((await bistro.next()).data.meals).toMatchObject([{ meal_id: 10, rating_count: 1 }]);
  });

  it("ends the streams of a canteen that is archived, and no other canteen's", async () => {
    const { app, stream, archive } = await liveServer();
    const bistro = await stream(`/api/v1/live?canteen=bistro&date=${today}`);
    const fallback = await stream();
    await bistro.next();
    await fallback.next();
    await archive('bistro');
    await bistro.ended;
    expect((await fallback.next()).event).toBe('snapshot');
    const again = await app.inject({ method: 'GET', url: `/api/v1/live?canteen=bistro&date=${today}` });
    expect([again.statusCode, again.json().error.code]).toEqual([404, 'canteen_not_found']);
  });

  it('resumes after Last-Event-ID with the events missed, and sends a snapshot for an id it no longer holds', async () => {
    const { stream, rate, scheduler } = await liveServer();
    const watcher = await stream();
    const first = await watcher.next();
    await rate('alice', 1, 4);
    scheduler.advance(250);
    const missed = await watcher.next();
    await rate('bob', 1, 2);
    scheduler.advance(250);
    const last = await watcher.next();

    const resumed = await stream(livePath, { 'last-event-id': first.id! });
    expect([await resumed.next(), await resumed.next()]).toEqual([missed, last]);
    expect(await resumed.unread()).toEqual([]);

    const upToDate = await stream(livePath, { 'last-event-id': last.id! });
    expect(await upToDate.unread()).toEqual([]);

    for (const stale of ['unknown.1', `${first.id!.split('.')[0]}.99`, 'garbage']) {
      const fresh = await stream(livePath, { 'last-event-id': stale });
      const snapshot = await fresh.next();
      expect(snapshot.event).toBe('snapshot');
      expect(snapshot.id).toBe(last.id);
      expect(snapshot.data.meals[0]).toMatchObject({ meal_id: 1, rating_count: 2 });
    }
  });

  it('sends a snapshot for an id older than the events it keeps', async () => {
    const { stream, rate, scheduler } = await liveServer();
    const watcher = await stream();
    const first = await watcher.next();
    // 256 events are kept: 257 windows with a change each push the first one out.
    for (let rating = 0; rating < 257; rating += 1) {
      await rate('alice', 1, (rating % 5) + 1);
      scheduler.advance(250);
    }
    const behind = await stream(livePath, { 'last-event-id': first.id! });
    expect((await behind.next()).event).toBe('snapshot');
    const justKept = await stream(livePath, { 'last-event-id': first.id!.replace(/\.0$/, '.1') });
    expect((await justKept.next()).event).toBe('stats');
  });

  it('sends a heartbeat comment when 15 s pass', async () => {
    const { stream, scheduler } = await liveServer();
    const client = await stream();
    await client.next();
    scheduler.advance(14_999);
    expect(await client.unread(50)).toEqual([]);
    scheduler.advance(1);
    expect(await client.next()).toEqual({ comment: 'heartbeat' });
    scheduler.advance(15_000);
    expect(await client.next()).toEqual({ comment: 'heartbeat' });
  });

  it('sends every stream a fresh snapshot when the menus change', async () => {
    const { app, stream } = await liveServer();
    const client = await stream();
    await client.next();
    const admin = signHmacToken(secret, { sub: 'admin', scope: 'meals:write' });
    const withdrawn = await app.inject({
      method: 'DELETE',
      url: '/api/v1/admin/meals/2',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBeLessThan(300);
    const snapshot = await client.next();
    expect(snapshot.event).toBe('snapshot');
    expect(snapshot.id).toMatch(/\.1$/);
    expect(snapshot.data.meals.map((meal: { meal_id: number }) => meal.meal_id)).toEqual([1]);
  });

  it('sends the stream uncompressed to a client that takes brotli and gzip: each event must arrive when written', async () => {
    const { stream } = await liveServer();
    const client = await stream(livePath, { 'accept-encoding': 'br, gzip' });
    expect(client.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.response.headers['content-encoding']).toBeUndefined();
    expect((await client.next()).event).toBe('snapshot');
  });

  it('refuses in the envelope before any stream: a missing or bad parameter, an unknown canteen', async () => {
    const { refused, registry } = await liveServer();
    expect(await refused('/api/v1/live?canteen=default')).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    });
    expect(await refused('/api/v1/live?canteen=default&date=2026-02-30')).toMatchObject({ status: 400 });
    expect(await refused(`${livePath}&from=${today}`)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    });
    const unknown = await refused(`/api/v1/live?canteen=nowhere&date=${today}`);
    expect(unknown).toMatchObject({ status: 404, body: { status: 'error', error: { code: 'canteen_not_found' } } });
    expect(unknown.headers['content-type']).toMatch(/^application\/json/);
    expect([registry().streams, registry().channelCount]).toEqual([0, 0]);
  });

  it('answers 429 past the streams of one address, and 503 past those of the instance, in the envelope', async () => {
    const perAddress = await liveServer({ maxStreamsPerAddress: 2 });
    await perAddress.stream();
    await perAddress.stream();
    const tooMany = await perAddress.refused();
    expect(tooMany).toMatchObject({ status: 429, body: { status: 'error', error: { code: 'rate_limited' } } });
    expect(tooMany.headers['retry-after']).toBe('10');

    const instance = await liveServer({ maxStreams: 1 });
    await instance.stream();
    expect(await instance.refused()).toMatchObject({ status: 503, body: { error: { code: 'service_unavailable' } } });
  });

  it('forgets a stream whose client leaves: its channel goes, and its place under the limit is free again', async () => {
    const { stream, registry } = await liveServer({ maxStreamsPerAddress: 1 });
    const client = await stream();
    await client.next();
    expect([registry().streams, registry().channelCount]).toEqual([1, 1]);
    client.close();
    await expect.poll(() => [registry().streams, registry().channelCount]).toEqual([0, 0]);
    const again = await stream();
    expect((await again.next()).event).toBe('snapshot');
  });

  it('ends every open stream when the app closes, and closes promptly', async () => {
    const { app, stream, registry } = await liveServer();
    const clients = [await stream(), await stream(`/api/v1/live?canteen=bistro&date=${today}`)];
    await Promise.all(clients.map((client) => client.next()));
    const started = Date.now();
    await app.close();
    await Promise.all(clients.map((client) => client.ended));
    expect(Date.now() - started).toBeLessThan(1000);
    expect([registry().streams, registry().channelCount]).toEqual([0, 0]);
  });
});

describe('GET /api/v1/live under load (issue 24)', () => {
  const bistroPath = `/api/v1/live?canteen=bistro&date=${today}`;

  it("an erasure sends the changed meals' figures to the channels that show them, and reads no menu again", async () => {
    const { stream, rate, eraseMyData, menuReads, scheduler } = await liveServer();
    await rate('alice', 1, 5);
    await rate('bob', 1, 3);
    const followed = await stream();
    const other = await stream(bistroPath);
    await followed.next();
    await other.next();
    scheduler.advance(250);
    expect(menuReads).toHaveLength(2);

    await eraseMyData('alice');
    scheduler.advance(250);

    const stats = await followed.next();
    expect(stats).toMatchObject({ event: 'stats', data: { meal_id: 1, rating_count: 1, rating_average: 3 } });
    expect(await other.unread(50)).toEqual([]);
    // Before: a change of every menu, and each channel read its menu again.
    expect(menuReads).toHaveLength(2);
  });

  it("a rating of another serving of a meal's dish reaches the channel through the dish, and no other channel", async () => {
    const { adapters, stream, rate, scheduler } = await liveServer();
    // Served two days ago under the same name in the same canteen: another serving of meal 1's dish.
    await adapters.meals.upsertMany([MealMother.servedDaysAgo(now, 2, { id: 20, name: 'Open meal' })]);
    const followed = await stream();
    const other = await stream(bistroPath);
    await followed.next();
    await other.next();

    await rate('dave', 20, 4);
    scheduler.advance(250);

    expect(await followed.next()).toMatchObject({
      event: 'stats',
      data: { meal_id: 1, rating_count: 0, dish: { rating_count: 1, rating_average: 4 } },
    });
    expect(await other.unread(50)).toEqual([]);
  });

  it('answers 503 for a new channel past the channels of the instance, and 429 past those of one address; a kept channel is always joined', async () => {
    const instance = await liveServer({ maxChannels: 1 });
    await instance.stream();
    await instance.stream();
    const full = await instance.refused(bistroPath);
    expect(full).toMatchObject({ status: 503, body: { status: 'error', error: { code: 'service_unavailable' } } });
    expect(full.headers['retry-after']).toBe('10');

    const address = await liveServer({ maxChannelsPerAddress: 1 });
    await address.stream();
    await address.stream();
    expect(await address.refused(bistroPath)).toMatchObject({
      status: 429,
      body: { status: 'error', error: { code: 'rate_limited' } },
    });
  });

  it('counts IPv6 clients by their /64 per address and by their /56 in all', async () => {
    const { stream, refused } = await liveServer(
      { maxStreamsPerAddress: 1, maxStreamsPerIpv6Slash56: 2 },
      { trustProxy: true },
    );
    const from = (address: string) => ({ 'x-forwarded-for': address });
    await stream(livePath, from('2001:db8:0:1::1'));
    // Another address of the same /64 is the same client.
    expect(await refused(livePath, from('2001:db8:0:1::2'))).toMatchObject({
      status: 429,
      body: { error: { code: 'rate_limited' } },
    });
    await stream(livePath, from('2001:db8:0:2::1'));
    // A third /64 of the same /56 is past the network's bound; another /56 is not.
    expect(await refused(livePath, from('2001:db8:0:3::1'))).toMatchObject({
      status: 429,
      body: { error: { code: 'rate_limited' } },
    });
    await stream(livePath, from('2001:db8:0:100::1'));
  });

  it('ends a stream after its lifetime, freeing its slot; the client resumes with Last-Event-ID', async () => {
    const { stream, registry, scheduler, rate } = await liveServer({
      maxLifetimeMs: 60_000,
      random: () => 0,
      maxStreamsPerAddress: 1,
    });
    const client = await stream();
    await client.next();
    await rate('carol', 1, 4);
    scheduler.advance(250);
    const stats = await client.next();

    scheduler.advance(60_000 - 250 - 1);
    expect(registry().streams).toBe(1);
    scheduler.advance(1);
    await client.ended;
    await expect.poll(() => registry().streams).toBe(0);

    const again = await stream(livePath, { 'last-event-id': stats.id! });
    // Its channel went with its last stream: the id is not this channel's, so a snapshot with the figures follows.
    const snapshot = await again.next();
    expect(snapshot.event).toBe('snapshot');
    expect(snapshot.data.meals.find((meal: { meal_id: number }) => meal.meal_id === 1)).toMatchObject({
      rating_count: 1,
    });
  });

  it('streams a day of 400 meals: its snapshot alone is larger than the backlog bound', async () => {
    const { adapters, stream } = await liveServer();
    await adapters.meals.upsertMany(
      Array.from({ length: 400 }, (_, index) =>
        MealMother.servedToday(now, {
          id: 1000 + index,
          name: `Bistro meal number ${index} with a long name`,
          canteenId: 'bistro',
          position: index,
        }),
      ),
    );
    const client = await stream(bistroPath);
    const snapshot = await client.next();
    expect(snapshot.event).toBe('snapshot');
    expect(snapshot.data.meals).toHaveLength(401);
    expect(JSON.stringify(snapshot.data).length).toBeGreaterThan(64 * 1024);
  });
});

describe('a slow reader', () => {
  /** A response whose socket takes `accepts` bytes before a write answers false, and drains when the test says. */
  function slowResponse(accepts: number) {
    const written: string[] = [];
    let buffered = 0;
    let destroyed = false;
    const drainListeners: (() => void)[] = [];
    const response = {
      write: (frame: string) => (written.push(frame), (buffered += frame.length) <= accepts),
      end: () => {},
      destroy: () => ((destroyed = true), response),
      get destroyed() {
        return destroyed;
      },
      writableEnded: false,
      socket: null,
      on: (event: string, listener: () => void) => (event === 'drain' && drainListeners.push(listener), response),
    };
    return {
      response,
      written,
      destroyed: () => destroyed,
      drain: () => {
        buffered = 0;
        for (const listener of drainListeners) listener();
      },
    };
  }

  it('is dropped once what was written since its socket filled passes the bound, and never written to again', () => {
    const slow = slowResponse(16);
    let drops = 0;
    const subscriber = sseSubscriber(slow.response as never, 64, () => (drops += 1));
    subscriber.send('x'.repeat(40));
    subscriber.send('x'.repeat(40));
    expect([slow.destroyed(), drops]).toEqual([false, 0]);
    subscriber.send('x'.repeat(40));
    expect([slow.destroyed(), drops]).toEqual([true, 1]);
    subscriber.send('x'.repeat(40));
    expect(slow.written).toHaveLength(2);
  });

  it("takes one frame larger than the bound (a big day's snapshot), and counts afresh once the socket drained", () => {
    const slow = slowResponse(16);
    let drops = 0;
    const subscriber = sseSubscriber(slow.response as never, 64, () => (drops += 1));
    subscriber.send('x'.repeat(100_000));
    subscriber.send('x'.repeat(60));
    expect([slow.destroyed(), drops]).toEqual([false, 0]);
    slow.drain();
    subscriber.send('x'.repeat(100_000));
    subscriber.send('x'.repeat(60));
    expect([slow.destroyed(), drops]).toEqual([false, 0]);
    subscriber.send('x'.repeat(10));
    expect([slow.destroyed(), drops]).toEqual([true, 1]);
  });
});

describe('GET /api/v1/live: the kitchen’s availability', () => {
  const kitchen = signHmacToken(secret, { sub: 'kitchen', scope: 'meals:kitchen' });
  const setAvailability = async (
    app: Awaited<ReturnType<typeof liveServer>>['app'],
    mealId: number,
    status: string,
  ) => {
    const answer = await app.inject({
      method: 'PUT',
      url: `/api/v1/kitchen/meals/${mealId}/availability`,
      headers: { authorization: `Bearer ${kitchen}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ status }),
    });
    expect(answer.statusCode, answer.body).toBe(200);
  };

  it('sends an availability event at once, without waiting for a window, and shows the state in every snapshot after it', async () => {
    const { app, stream } = await liveServer();
    const client = await stream();
    const snapshot = await client.next();
    expect(snapshot.data.meals[0]).toMatchObject({
      meal_id: 1,
      availability: 'available',
      availability_changed_at: null,
    });

    await setAvailability(app, 1, 'sold_out');

    const event = await client.next();
    expect(event.event).toBe('availability');
    expect(event.id).toMatch(/\.1$/);
    expect(event.data).toEqual({ meal_id: 1, availability: 'sold_out', availability_changed_at: now.toISOString() });
    const joining = await stream();
    expect((await joining.next()).data.meals[0]).toMatchObject({
      meal_id: 1,
      availability: 'sold_out',
      availability_changed_at: now.toISOString(),
    });
  });

  it("a burst of taps, read through fetch: every stream ends with each meal's last status, events in id order", async () => {
    const { app, scheduler } = await liveServer();
    const { port } = app.server.address() as AddressInfo;
    const readers = await Promise.all([0, 1, 2].map(() => fetchStream(`http://127.0.0.1:${port}${livePath}`)));
    await Promise.all(readers.map((reader) => reader.until((states) => states.size > 0)));

    const statuses = ['few_left', 'sold_out', 'available'];
    const last = new Map<number, string>();
    const taps: Promise<void>[] = [];
    for (let tap = 0; tap < 60; tap++) {
      const mealId = 1 + (tap % 2);
      const status = statuses[Math.floor(tap / 2) % statuses.length]!;
      last.set(mealId, status);
      taps.push(setAvailability(app, mealId, status));
    }
    await Promise.all(taps);
    // The fan-out's pacing interval (100 ms) passes: what the burst left waiting goes out.
    scheduler.advance(1000);

    for (const reader of readers) {
      await reader.until((states) => [...last].every(([mealId, status]) => states.get(mealId) === status));
      expect(reader.ids).toEqual([...reader.ids].sort((a, b) => a - b));
      reader.close();
    }
  });

  it('replays the event to a stream that resumes after it, and sends nothing for the same status again or another canteen', async () => {
    const { app, stream } = await liveServer();
    const client = await stream();
    const snapshot = await client.next();
    await setAvailability(app, 1, 'few_left');
    await client.next();

    // Another stream of the channel (its first stays open: the channel and its events are kept) resumes after the
    // snapshot.
    const resumed = await stream(livePath, { 'last-event-id': snapshot.id! });
    expect(await resumed.next()).toMatchObject({
      event: 'availability',
      data: { meal_id: 1, availability: 'few_left' },
    });
    await setAvailability(app, 1, 'few_left');
    await setAvailability(app, 10, 'sold_out');
    expect(await resumed.unread()).toEqual([]);
  });
});

/**
 * A stream read with Node's fetch, as an app would: each meal's availability as the snapshot and the events leave it,
 * and the number of each event id in the order read.
 */
async function fetchStream(url: string) {
  const abort = new AbortController();
  const response = await fetch(url, { signal: abort.signal, headers: { accept: 'text/event-stream' } });
  expect(response.status).toBe(200);
  const states = new Map<number, string>();
  const ids: number[] = [];
  const waiters = new Set<() => void>();
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const frame = frameOf(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (frame.event === 'snapshot')
            for (const meal of frame.data.meals) states.set(meal.meal_id, meal.availability);
          if (frame.event === 'availability') {
            states.set(frame.data.meal_id, frame.data.availability);
            ids.push(Number(frame.id!.split('.')[1]));
          }
        }
        for (const wake of waiters) wake();
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    ids,
    /** Resolves once the states read satisfy `done`: no deadline of its own (the test's timeout bounds it). */
    until: async (done: (read: ReadonlyMap<number, string>) => boolean) => {
      while (!done(states)) await new Promise<void>((resolve) => waiters.add(resolve));
      waiters.clear();
    },
    close: () => {
      abort.abort();
      return reading;
    },
  };
}
