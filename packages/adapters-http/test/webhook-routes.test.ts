import { randomBytes } from 'node:crypto';
import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { createUseCases } from '@canteen-meals/domain';
import type { SendOutcome } from '@canteen-meals/domain/ports';
import { MealMother } from '@canteen-meals/repository-contract';
import { webhooksPlugin } from '@canteen-meals/adapters-http-webhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminScope } from '../src/index.js';
import { buildHttpApp, createHmacTokenVerifier, signHmacToken, httpUseCasesOf } from '../src/index.js';
import { now, secret, timeZone } from './app-fixture.js';

// The webhook routes over the in-memory store, with a secret generator and a sender the test controls.
const clock = new FixedClock(now);
let adapters = createInMemoryAdapters();
let outcome: SendOutcome = { delivered: true, status: 200 };
let useCases: ReturnType<typeof createUseCases>;
let app: Awaited<ReturnType<typeof buildHttpApp>>;

beforeAll(async () => {
  adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: timeZone }));
  useCases = createUseCases(
    adapters,
    clock,
    { start: '11:00', timeZone },
    {},
    {
      sender: { send: async () => outcome },
      newSecret: () => `whsec_${randomBytes(32).toString('base64')}`,
      delivery: { random: () => 0.5 },
    },
  );
  app = await buildHttpApp({
    useCases: httpUseCasesOf(useCases),
    verifyToken: createHmacTokenVerifier({ secret }),
    cursorSecret: 'cursor-secret-of-at-least-32-bytes!!!!',
    plugins: [webhooksPlugin({ useCases, cursorSecret: 'cursor-secret-of-at-least-32-bytes!!!!' })],
  });
});
beforeEach(() => {
  const { db } = adapters;
  db.webhooks.clear();
  db.deliveries.clear();
  db.outbox.splice(0);
  clock.set(now);
  outcome = { delivered: true, status: 200 };
});
afterAll(() => app.close());

const admin = (scope: string | null = adminScope) => ({
  authorization: `Bearer ${signHmacToken(secret, { sub: 'alice', ...(scope === null ? {} : { scope }) })}`,
});
const put = (id: string, body: unknown, scope: string | null = adminScope) =>
  app.inject({
    method: 'PUT',
    url: `/api/v1/admin/webhooks/${id}`,
    headers: { ...admin(scope), 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const get = (url: string) => app.inject({ method: 'GET', url, headers: admin() });
const errorOf = (response: { statusCode: number; json(): any }) => [response.statusCode, response.json().error?.code];
const body = { url: 'https://app.example.com/hooks/meals', events: ['menu.published', 'favourites.upcoming'] };
const given = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('PUT /api/v1/admin/webhooks/{webhook_id}', () => {
  it('creates (201) with a generated secret shown once; GET never shows it; a replacement (200) keeps created_at', async () => {
    const created = await put('app-backend', body);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      status: 'success',
      data: {
        webhook_id: 'app-backend',
        ...body,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        enabled: true,
        failing_since: null,
        disabled_at: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      },
    });
    expect((await get('/api/v1/admin/webhooks/app-backend')).json().data).not.toHaveProperty('secret');

    clock.advance(60_000);
    const replaced = await put('app-backend', { ...body, secret: given });
    expect(replaced.statusCode).toBe(200);
    // A secret the admin gave is not echoed back.
    expect(replaced.json().data).not.toHaveProperty('secret');
    expect(replaced.json().data).toMatchObject({
      created_at: now.toISOString(),
      updated_at: new Date(now.getTime() + 60_000).toISOString(),
    });
    expect((await adapters.webhooks.find('app-backend'))?.secret).toBe(given);
  });

  it.each([
    ['an unknown field', { ...body, retries: 3 }],
    ['no events', { ...body, events: [] }],
    ['an unknown event', { ...body, events: ['menu.deleted'] }],
    ['a repeated event', { ...body, events: ['menu.published', 'menu.published'] }],
    ['an ftp URL', { ...body, url: 'ftp://app.example.com/' }],
    ['credentials in the URL', { ...body, url: 'https://user:password@app.example.com/' }],
    ['a secret that is not whsec_', { ...body, secret: 'hunter2' }],
    ['a secret whose base64 is cut short', { ...body, secret: `${given}A` }],
  ])('refuses %s: 400 invalid_request, nothing saved', async (_, invalid) => {
    expect(errorOf(await put('app-backend', invalid))).toEqual([400, 'invalid_request']);
    expect(errorOf(await get('/api/v1/admin/webhooks/app-backend'))).toEqual([404, 'webhook_not_found']);
  });

  it('refuses an id that is not 1 to 64 of A-Z, a-z, 0-9, _ and -', async () => {
    const refused = await put('not.an.id', body);
    expect(errorOf(refused)).toEqual([400, 'invalid_request']);
    expect(refused.json().error.message).toContain('the webhook id');
  });

  it('needs a token with the meals:write scope', async () => {
    expect(errorOf(await put('app-backend', body, null))).toEqual([403, 'forbidden']);
    const anonymous = await app.inject({ method: 'GET', url: '/api/v1/admin/webhooks' });
    expect(errorOf(anonymous)).toEqual([401, 'unauthenticated']);
  });
});

describe('GET and DELETE /api/v1/admin/webhooks[/{webhook_id}]', () => {
  it('lists by id, reads one, deletes it (200), and then answers 404 webhook_not_found', async () => {
    await put('zeta', body);
    await put('alpha', { ...body, secret: given });

    const listed = await get('/api/v1/admin/webhooks');
    expect(listed.json().data.webhooks.map((webhook: { webhook_id: string }) => webhook.webhook_id)).toEqual([
      'alpha',
      'zeta',
    ]);
    expect(JSON.stringify(listed.json())).not.toContain('whsec_');

    const deleted = await app.inject({ method: 'DELETE', url: '/api/v1/admin/webhooks/alpha', headers: admin() });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ status: 'success', data: { webhook_id: 'alpha', deleted: true } });
    expect(
      errorOf(await app.inject({ method: 'DELETE', url: '/api/v1/admin/webhooks/alpha', headers: admin() })),
    ).toEqual([404, 'webhook_not_found']);
    expect(errorOf(await get('/api/v1/admin/webhooks/alpha'))).toEqual([404, 'webhook_not_found']);
    expect(errorOf(await get('/api/v1/admin/webhooks/alpha/deliveries'))).toEqual([404, 'webhook_not_found']);
  });
});

describe('GET /api/v1/admin/webhooks/{webhook_id}/deliveries', () => {
  async function deliveredEvents(count: number) {
    await put('app-backend', body);
    await put('other', body);
    for (let id = 1; id <= count; id += 1) {
      await useCases.upsertMeals.execute([MealMother.servedTomorrow(clock.now(), { id })]);
      await useCases.deliverWebhooks.execute();
      clock.advance(1_000);
    }
  }

  it('pages the log newest first with a signed cursor', async () => {
    await deliveredEvents(3);

    const first = await get('/api/v1/admin/webhooks/app-backend/deliveries?limit=2');
    expect(first.statusCode).toBe(200);
    const { deliveries, next_cursor: cursor } = first.json().data;
    expect(deliveries).toHaveLength(2);
    expect(deliveries[0]).toEqual({
      event_id: expect.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
      type: 'menu.published',
      state: 'delivered',
      attempts: 1,
      last_status: 200,
      last_error: null,
      last_attempt_at: new Date(now.getTime() + 2_000).toISOString(),
      next_attempt_at: null,
      created_at: new Date(now.getTime() + 2_000).toISOString(),
    });
    expect(deliveries[1].created_at).toBe(new Date(now.getTime() + 1_000).toISOString());

    const second = await get(`/api/v1/admin/webhooks/app-backend/deliveries?limit=2&cursor=${cursor}`);
    expect(second.json().data.deliveries.map((delivery: { created_at: string }) => delivery.created_at)).toEqual([
      now.toISOString(),
    ]);
    expect(second.json().data.next_cursor).toBeNull();
  });

  it("shows a failed attempt's status, reason and next attempt", async () => {
    outcome = { delivered: false, status: 503, error: 'HTTP 503' };
    await deliveredEvents(1);

    const [delivery] = (await get('/api/v1/admin/webhooks/app-backend/deliveries')).json().data.deliveries;
    expect(delivery).toMatchObject({
      state: 'pending',
      attempts: 1,
      last_status: 503,
      last_error: 'HTTP 503',
      next_attempt_at: new Date(now.getTime() + 30_000).toISOString(),
    });
  });

  it("refuses a cursor it did not hand out, and another endpoint's cursor: 400 invalid_cursor", async () => {
    await deliveredEvents(3);
    const cursor = (await get('/api/v1/admin/webhooks/app-backend/deliveries?limit=1')).json().data
      .next_cursor as string;

    expect(errorOf(await get(`/api/v1/admin/webhooks/other/deliveries?cursor=${cursor}`))).toEqual([
      400,
      'invalid_cursor',
    ]);
    const tampered = `${cursor.slice(0, 3)}${cursor[3] === 'A' ? 'B' : 'A'}${cursor.slice(4)}`;
    expect(errorOf(await get(`/api/v1/admin/webhooks/app-backend/deliveries?cursor=${tampered}`))).toEqual([
      400,
      'invalid_cursor',
    ]);
    expect(errorOf(await get('/api/v1/admin/webhooks/app-backend/deliveries?limit=0'))).toEqual([
      400,
      'invalid_request',
    ]);
  });
});
