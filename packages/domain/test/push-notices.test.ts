import {
  createInMemoryAdapters,
  createInMemoryPushStore,
  FixedClock,
  InMemoryDatabase,
} from '@canteen-meals/adapters-memory';
import { describe, expect, it, vi } from 'vitest';
import {
  base64urlBytes,
  createPushUseCases,
  createUseCases,
  payloadJson,
  maxPushPayloadBytes,
  pushSubscriptionProblem,
  type PushSubscription,
} from '../src/index.js';
import type { PushSender, PushSendOutcome } from '../src/ports.js';

// Web Push's decisions over the in-memory store, a clock the test moves and a sender whose answers it
// scripts: when a digest goes out (once a canteen day, not after two hours), to whom (their marks, filter, aversions
// and settings), the sold-out notice, and how each answer of a push service is settled.
const p256dh = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url');
const auth = Buffer.alloc(16, 9).toString('base64url');
const timeZone = 'Europe/Berlin';

/** A sender that records what it is handed and answers from a script per endpoint (201 when nothing is said). */
function scriptedSender() {
  const sent: { endpoint: string; payload: Record<string, string>; ttlSeconds: number; topic: string }[] = [];
  const script = new Map<string, PushSendOutcome[]>();
  const sender: PushSender = {
    async send(subscription: PushSubscription, message) {
      sent.push({
        endpoint: subscription.endpoint,
        payload: JSON.parse(message.payload) as Record<string, string>,
        ttlSeconds: message.ttlSeconds,
        topic: message.topic,
      });
      return script.get(subscription.endpoint)?.shift() ?? { status: 201 };
    },
  };
  return { sender, sent, script };
}

async function setUp(now = '2026-03-10T09:00:00Z') {
  const db = new InMemoryDatabase({ defaultTimeZone: timeZone });
  const repositories = createInMemoryAdapters(db);
  const store = createInMemoryPushStore(db);
  const clock = new FixedClock(now);
  const useCases = createUseCases({ ...repositories, pushStore: store }, clock, { start: '11:00', timeZone });
  const { sender, sent, script } = scriptedSender();
  const push = createPushUseCases({
    store,
    canteens: repositories.canteens,
    preferences: repositories.preferences,
    sender,
    clock,
    checkEndpoint: () => undefined,
    digestTime: '10:30',
    delivery: { random: () => 0.5, baseMs: 1000 },
  });
  await useCases.saveCanteen.execute({
    id: 'nord',
    name: 'Mensa Nord',
    timeZone,
    city: null,
    address: null,
    coordinates: null,
    feeds: [],
  });
  const lunch = new Date('2026-03-10T11:30:00Z');
  const upsert = await useCases.upsertMeals.execute([
    {
      id: 1,
      name: 'Currywurst',
      servedAt: new Date('2026-03-03T11:30:00Z'),
      rateable: true,
      canteenId: 'nord',
      labels: ['pork'],
    },
    { id: 2, name: 'Currywurst', servedAt: lunch, rateable: true, canteenId: 'nord', labels: ['pork'] },
    { id: 3, name: 'Lentil soup', servedAt: lunch, rateable: true, canteenId: 'nord', labels: ['vegan'] },
    {
      id: 4,
      name: 'Lentil soup',
      servedAt: new Date('2026-03-02T11:30:00Z'),
      rateable: true,
      canteenId: 'nord',
      labels: ['vegan'],
    },
  ]);
  expect(upsert.ok).toBe(true);
  const subscribe = async (userId: string, endpoint = `https://push.example/${userId}`) => {
    const saved = await push.savePushSubscription.execute({ userId, endpoint, p256dh, auth, expirationTime: null });
    expect(saved.ok).toBe(true);
  };
  return { db, clock, useCases, push, store, sent, script, subscribe };
}

describe('a subscription', () => {
  it('takes a 65-byte uncompressed P-256 key and a 16-byte secret, and names the field that is wrong', () => {
    const endpoint = 'https://push.example/x';
    const ok = () => undefined;
    expect(pushSubscriptionProblem({ endpoint, p256dh, auth }, ok)).toBeUndefined();
    expect(pushSubscriptionProblem({ endpoint, p256dh: p256dh.slice(0, 40), auth }, ok)?.field).toBe('keys.p256dh');
    const compressed = Buffer.concat([Buffer.from([2]), Buffer.alloc(64, 7)]).toString('base64url');
    expect(pushSubscriptionProblem({ endpoint, p256dh: compressed, auth }, ok)?.field).toBe('keys.p256dh');
    expect(pushSubscriptionProblem({ endpoint, p256dh, auth: Buffer.alloc(15).toString('base64url') }, ok)?.field).toBe(
      'keys.auth',
    );
    expect(pushSubscriptionProblem({ endpoint, p256dh, auth: 'not base64url!' }, ok)?.field).toBe('keys.auth');
    expect(pushSubscriptionProblem({ endpoint, p256dh, auth }, () => 'must be an https: URL')).toEqual({
      field: 'endpoint',
      message: 'endpoint must be an https: URL',
    });
  });

  it('decodes base64url as Node does', () => {
    for (const length of [0, 1, 2, 3, 16, 65]) {
      const bytes = Buffer.from(Array.from({ length }, (_, index) => (index * 37 + 11) % 256));
      expect(Buffer.from(base64urlBytes(bytes.toString('base64url'))!)).toEqual(bytes);
    }
  });

  it('keeps at most ten a person: the eleventh replaces the oldest', async () => {
    const { push, clock } = await setUp();
    for (let index = 0; index < 11; index += 1) {
      clock.set(new Date(Date.parse('2026-03-10T09:00:00Z') + index * 1000));
      await push.savePushSubscription.execute({
        userId: 'ann',
        endpoint: `https://push.example/${index}`,
        p256dh,
        auth,
        expirationTime: null,
      });
    }
    const kept = await push.listPushSubscriptions.execute({ userId: 'ann' });
    expect(kept.map((subscription) => subscription.endpoint)).toEqual(
      Array.from({ length: 10 }, (_, index) => `https://push.example/${index + 1}`),
    );
  });
});

describe('the favourites digest', () => {
  it('goes out at PUSH_DIGEST_TIME on the canteen’s clock, once a canteen day, listing the servings of each person’s marked dishes', async () => {
    const { useCases, push, sent, clock, subscribe, store } = await setUp('2026-03-10T09:00:00Z');
    const audienceReads = vi.spyOn(store.pushAudience, 'markedServingsOn');
    // Ann marked last week's currywurst (the dish is on today); Ben today's soup; Cem nothing.
    await useCases.markMeal.execute({ userId: 'ann', mealId: 1, marked: true });
    await useCases.markMeal.execute({ userId: 'ann', mealId: 4, marked: true });
    await useCases.markMeal.execute({ userId: 'ben', mealId: 3, marked: true });
    await subscribe('ann');
    await subscribe('ann', 'https://push.example/ann-phone');
    await subscribe('ben');
    await subscribe('cem');
    // 10:00 in Berlin: not yet.
    expect(await push.runPushDigests.execute(clock.now())).toEqual({ digests: 0, queued: 0, dropped: 0 });
    clock.set(new Date('2026-03-10T09:31:00Z'));
    // Two canteens' days (the `default` canteen's with no favourites on it), written once each.
    expect(await push.runPushDigests.execute(clock.now())).toEqual({ digests: 2, queued: 3, dropped: 0 });
    // A second check, or another instance's, writes nothing again.
    expect(await push.runPushDigests.execute(clock.now())).toEqual({ digests: 0, queued: 0, dropped: 0 });
    await push.deliverPushes.execute();
    // The two canteens' audiences were read once each: the second check found both keys written and read no more.
    expect(audienceReads).toHaveBeenCalledTimes(2);
    const ann = sent.filter((each) => each.endpoint.includes('ann'));
    expect(ann.map((each) => each.endpoint).sort()).toEqual([
      'https://push.example/ann',
      'https://push.example/ann-phone',
    ]);
    expect(ann[0]!.payload).toEqual({
      title: 'Your favourites today',
      body: 'Today at Mensa Nord: Currywurst, Lentil soup',
      url: '/?canteen=nord&date=2026-03-10&lang=en',
      tag: 'favourites-2026-03-10',
    });
    expect(ann[0]!.topic).toBe('favourites-2026-03-10');
    // Until the end of the canteen's day (midnight in Berlin is 23:00 UTC).
    expect(ann[0]!.ttlSeconds).toBe((Date.parse('2026-03-10T23:00:00Z') - Date.parse('2026-03-10T09:31:00Z')) / 1000);
    expect(sent.find((each) => each.endpoint.endsWith('/ben'))!.payload.body).toBe('Today at Mensa Nord: Lentil soup');
    expect(sent.some((each) => each.endpoint.endsWith('/cem'))).toBe(false);
  });

  it('leaves out what the person filters or avoids, those who turned it off, and speaks their language', async () => {
    const { useCases, push, sent, clock, subscribe } = await setUp('2026-03-10T09:40:00Z');
    for (const user of ['ann', 'ben', 'dora']) {
      await useCases.markMeal.execute({ userId: user, mealId: 1, marked: true });
      await useCases.markMeal.execute({ userId: user, mealId: 3, marked: true });
      await subscribe(user);
    }
    await useCases.savePreferences.execute({ userId: 'ann', without: ['pork'], only: [] });
    const soup = await useCases.getMeal.execute({ userId: null, mealId: 3 });
    expect(
      (await useCases.avoidDish.execute({ userId: 'ann', dishId: soup.ok ? soup.value.dish.id : 0, avoided: true })).ok,
    ).toBe(true);
    await push.saveNotificationSettings.execute({
      userId: 'ben',
      settings: { favouritesToday: false, soldOut: false, language: 'en' },
    });
    await push.saveNotificationSettings.execute({
      userId: 'dora',
      settings: { favouritesToday: true, soldOut: false, language: 'de' },
    });
    expect(await push.runPushDigests.execute(clock.now())).toMatchObject({ digests: 2, queued: 1 });
    await push.deliverPushes.execute();
    expect(sent.map((each) => [each.endpoint, each.payload.title, each.payload.body])).toEqual([
      ['https://push.example/dora', 'Deine Favoriten heute', 'Heute in Mensa Nord: Currywurst, Lentil soup'],
    ]);
  });

  it('is dropped when it cannot start within two hours of its time (lunch is over), and stays done', async () => {
    const { useCases, push, clock, subscribe } = await setUp('2026-03-10T11:31:00Z');
    await useCases.markMeal.execute({ userId: 'ann', mealId: 2, marked: true });
    await subscribe('ann');
    expect(await push.runPushDigests.execute(clock.now())).toEqual({ digests: 0, queued: 0, dropped: 2 });
    expect(await push.runPushDigests.execute(clock.now())).toEqual({ digests: 0, queued: 0, dropped: 0 });
  });

  it('keeps its payload under 3 KB however many favourites are on', () => {
    const json = payloadJson({
      title: 'Your favourites today',
      body: `Today at Mensa Nord: ${'Käsespätzle mit Röstzwiebeln, '.repeat(200)}`,
      url: '/',
      tag: 't',
    });
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(maxPushPayloadBytes);
    expect(JSON.parse(json).body).toMatch(/…$/);
  });
});

describe('the sold-out notice', () => {
  it('goes to those who marked today’s meal and asked for it, once a meal', async () => {
    const { useCases, push, sent, subscribe, clock } = await setUp('2026-03-10T11:45:00Z');
    for (const user of ['ann', 'ben']) {
      await useCases.markMeal.execute({ userId: user, mealId: 2, marked: true });
      await subscribe(user);
    }
    await push.saveNotificationSettings.execute({
      userId: 'ann',
      settings: { favouritesToday: true, soldOut: true, language: 'en' },
    });
    const notice = {
      mealId: 2,
      name: 'Currywurst',
      canteenId: 'nord',
      servedAt: new Date('2026-03-10T11:30:00Z'),
      now: clock.now(),
    };
    expect(await push.notifySoldOut.execute(notice)).toBe(1);
    expect(await push.notifySoldOut.execute(notice)).toBe(0);
    await push.deliverPushes.execute();
    expect(sent.map((each) => [each.endpoint, each.payload.title, each.payload.tag])).toEqual([
      ['https://push.example/ann', 'Sold out: Currywurst', 'sold-out-2'],
    ]);
    // Not a meal of today: nothing.
    expect(await push.notifySoldOut.execute({ ...notice, mealId: 1, servedAt: new Date('2026-03-03T11:30:00Z') })).toBe(
      0,
    );
  });
});

describe('a delivery', () => {
  async function queuedFor(endpoint: string) {
    const context = await setUp('2026-03-10T09:31:00Z');
    await context.useCases.markMeal.execute({ userId: 'ann', mealId: 2, marked: true });
    await context.subscribe('ann', endpoint);
    await context.push.runPushDigests.execute(context.clock.now());
    return context;
  }

  it('is settled by a 2xx', async () => {
    const { push, store, sent } = await queuedFor('https://push.example/a');
    expect(await push.deliverPushes.execute()).toMatchObject({ attempts: 1, outcomes: { delivered: 1 } });
    expect(await store.pushOutbox.depth()).toBe(0);
    expect(sent).toHaveLength(1);
  });

  it('removes its subscription on 404 and 410', async () => {
    for (const status of [404, 410]) {
      const { push, script, store } = await queuedFor('https://push.example/a');
      script.set('https://push.example/a', [{ status }]);
      expect(await push.deliverPushes.execute()).toMatchObject({ outcomes: { gone: 1 } });
      expect(await push.listPushSubscriptions.execute({ userId: 'ann' })).toEqual([]);
      expect(await store.pushOutbox.depth()).toBe(0);
    }
  });

  it('retries a 500 with backoff into one delivery, and honours a 429’s Retry-After', async () => {
    const { push, script, clock, sent } = await queuedFor('https://push.example/a');
    script.set('https://push.example/a', [{ status: 500 }, { status: 429, retryAfterMs: 120_000 }, { status: 201 }]);
    expect(await push.deliverPushes.execute()).toMatchObject({ outcomes: { retry: 1 } });
    // Not before its backoff (1 s × 2^0 × (0.5 + 0.5)).
    expect(await push.deliverPushes.execute()).toMatchObject({ attempts: 0 });
    clock.set(new Date(clock.now().getTime() + 1000));
    expect(await push.deliverPushes.execute()).toMatchObject({ outcomes: { retry: 1 } });
    clock.set(new Date(clock.now().getTime() + 119_000));
    expect(await push.deliverPushes.execute()).toMatchObject({ attempts: 0 });
    clock.set(new Date(clock.now().getTime() + 1000));
    expect(await push.deliverPushes.execute()).toMatchObject({ outcomes: { delivered: 1 } });
    expect(sent).toHaveLength(3);
  });

  it('fails for good on another 4xx, and expires with its day', async () => {
    const failed = await queuedFor('https://push.example/a');
    failed.script.set('https://push.example/a', [{ status: 400, error: 'bad request' }]);
    expect(await failed.push.deliverPushes.execute()).toMatchObject({ outcomes: { failed: 1 } });
    expect(await failed.store.pushOutbox.depth()).toBe(0);
    expect(failed.store.pushOutbox.snapshot()).toEqual([
      expect.objectContaining({ state: 'failed', lastStatus: 400, lastError: 'bad request' }),
    ]);

    const late = await queuedFor('https://push.example/b');
    late.script.set('https://push.example/b', [{ status: null, error: 'connection refused' }]);
    late.clock.set(new Date('2026-03-10T22:59:59.500Z'));
    expect(await late.push.deliverPushes.execute()).toMatchObject({ outcomes: { expired: 1 } });
    expect(await late.store.pushOutbox.depth()).toBe(0);
  });

  it('holds at most its share of slots for one slow push service: the others are sent meanwhile', async () => {
    const { useCases, push, subscribe, clock, store } = await setUp('2026-03-10T09:31:00Z');
    for (let index = 0; index < 4; index += 1) {
      await useCases.markMeal.execute({ userId: `slow-${index}`, mealId: 2, marked: true });
      await subscribe(`slow-${index}`, `https://slow.example/${index}`);
    }
    await useCases.markMeal.execute({ userId: 'fast', mealId: 2, marked: true });
    await subscribe('fast', 'https://fast.example/1');
    await push.runPushDigests.execute(clock.now());
    const order: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const gated = createPushUseCases({
      store,
      canteens: useCases.listCanteens as never,
      preferences: null as never,
      sender: {
        async send(subscription) {
          if (subscription.endpoint.startsWith('https://slow')) await held;
          order.push(subscription.endpoint);
          return { status: 201 };
        },
      },
      clock,
      checkEndpoint: () => undefined,
      digestTime: '10:30',
      delivery: { concurrency: 3, perService: 2, random: () => 0.5, baseMs: 1000 },
    });
    const pass = gated.deliverPushes.execute();
    await expect.poll(() => order).toEqual(['https://fast.example/1']);
    release();
    expect(await pass).toMatchObject({ outcomes: { delivered: 5 } });
  });
});
