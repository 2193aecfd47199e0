import { FixedClock } from '@canteen-meals/adapters-memory';
import type { ChangeRelay } from '@canteen-meals/adapters-postgres';
import type { MenuChange, MenuChangeOrigin, UseCases } from '@canteen-meals/domain';
import { signHmacToken } from '@canteen-meals/adapters-http';
import { MealMother } from '@canteen-meals/repository-contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from '../../../packages/adapters-postgres/test/support/test-database.js';
import { buildServer, tokens } from '../src/composition-root.js';
import { loadConfig } from '../src/config.js';
import { openPersistence } from '../src/persistence.js';

// Two instances of the server on one PostgreSQL database, each with the server's default menu caching and a clock
// of its own that the test moves: how old can a public menu's statistics be on the instance that took a rating, and
// on the other one, which hears of it through the change relay (LISTEN/NOTIFY) or, without it, not at all?

const secret = 'menu-freshness-secret-of-at-least-32-bytes';
const databaseUrl = databasePerFile();
const now = new Date('2026-03-10T12:00:00.000Z');
const publicMenu = '/api/v1/meals?canteen=default&date=2026-03-10';
const closeLater: (() => Promise<unknown>)[] = [];
interface Instance {
  readonly app: FastifyInstance;
  readonly clock: FixedClock;
  readonly changeRelay: ChangeRelay | null;
  /** Resolves when the instance's hub hears a change from another instance. */
  readonly nextRemote: () => Promise<MenuChange>;
}
let instances: Instance[];

beforeAll(async () => {
  const config = loadConfig({
    DATABASE_URL: databaseUrl(),
    LOG_LEVEL: 'silent',
    POSTGRES_POOL_SIZE: '2',
    JWT_SECRET: secret,
    TZ_NAME: 'UTC',
  });
  expect(config.menuCaching).toMatchObject({ ratingsMaxAgeMs: 1000, ttlMs: 4000 });
  instances = [];
  for (let i = 0; i < 2; i++) {
    const persistence = await openPersistence(config, () => {});
    const clock = new FixedClock(now);
    const { app, container, changeRelay } = await buildServer(config, { persistence, clock });
    closeLater.push(
      () => app.close(),
      () => persistence.close(),
    );
    const hub = container.resolve<UseCases>(tokens.useCases).menuChanges;
    const nextRemote = () =>
      new Promise<MenuChange>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no remote change within 10 s')), 10_000);
        const stop = hub.subscribe((change: MenuChange, origin: MenuChangeOrigin) => {
          if (origin !== 'remote') return;
          clearTimeout(timer);
          stop();
          resolve(change);
        });
      });
    instances.push({ app, clock, changeRelay, nextRemote });
  }
  for (const { changeRelay } of instances) await changeRelay?.ready;
  const admin = `Bearer ${signHmacToken(secret, { sub: 'admin', scope: 'meals:write', expiresInMs: 3_600_000 })}`;
  const upsert = await instances[0]!.app.inject({
    method: 'PUT',
    url: '/api/v1/admin/meals',
    headers: { authorization: admin },
    payload: MealMother.upsertBody(MealMother.servedAt(new Date('2026-03-10T11:00:00.000Z'), { id: 1, name: 'Pho' })),
  });
  expect(upsert.statusCode, upsert.body).toBe(200);
});
afterAll(async () => {
  for (const close of closeLater.reverse()) await close();
});

const countOn = async (instance: Pick<Instance, 'app'>) => {
  const response = await instance.app.inject({ method: 'GET', url: publicMenu });
  expect(response.statusCode).toBe(200);
  return (response.json() as { data: { meals: { rating_count: number }[] } }).data.meals[0]!.rating_count;
};
const at = (ms: number) => {
  for (const { clock } of instances) clock.set(now.getTime() + ms);
};

const rate = async (instance: Instance, user: string, rating: number) => {
  const token = signHmacToken(secret, { sub: user, expiresInMs: 3_600_000 });
  const rated = await instance.app.inject({
    method: 'POST',
    url: '/api/v1/rate-meal',
    headers: { authorization: `Bearer ${token}` },
    payload: { meal_id: 1, rating },
  });
  expect(rated.statusCode, rated.body).toBe(200);
  return rated.json() as { data: { rating_count: number } };
};

describe('public menus of instances sharing PostgreSQL', () => {
  it('show a rating within 1 s on the instance that took it, and on the other once it hears of it', async () => {
    const [writer, other] = instances as [Instance, Instance];
    expect(other.changeRelay).not.toBeNull();
    at(0);
    expect([await countOn(writer), await countOn(other)]).toEqual([0, 0]);

    const heard = other.nextRemote();
    expect(await rate(writer, 'alice', 5)).toMatchObject({ data: { rating_count: 1 } });
    expect(await heard).toMatchObject({ kind: 'rating', mealId: 1, histogram: [0, 0, 0, 0, 1] });

    // Both kept the answer read at 0 ms and both were told of the rating (the other through NOTIFY): neither clock
    // goes anywhere near the 4 s TTL.
    at(999);
    expect([await countOn(writer), await countOn(other)]).toEqual([0, 0]);
    at(1000);
    expect([await countOn(writer), await countOn(other)]).toEqual([1, 1]);
  });

  it("show the kitchen's change of availability at once on both instances, with a new ETag, as soon as the other hears of it", async () => {
    const [writer, other] = instances as [Instance, Instance];
    at(2000);
    const menuOn = (instance: Instance) => instance.app.inject({ method: 'GET', url: publicMenu });
    const tags = [(await menuOn(writer)).headers.etag, (await menuOn(other)).headers.etag];
    const kitchen = signHmacToken(secret, { sub: 'kitchen', scope: 'meals:kitchen', expiresInMs: 3_600_000 });

    const heard = other.nextRemote();
    const changed = await writer.app.inject({
      method: 'PUT',
      url: '/api/v1/kitchen/meals/1/availability',
      headers: { authorization: `Bearer ${kitchen}` },
      payload: { status: 'sold_out' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await heard).toMatchObject({ kind: 'availability', mealId: 1, availability: { status: 'sold_out' } });

    // The same instant: unlike a rating, an availability is never served late from a kept answer.
    const [onWriter, onOther] = [await menuOn(writer), await menuOn(other)];
    for (const [response, tag] of [
      [onWriter, tags[0]],
      [onOther, tags[1]],
    ] as const) {
      expect(response.headers.etag).not.toBe(tag);
      expect(response.json().data.meals[0]).toMatchObject({
        availability: 'sold_out',
        availability_changed_at: '2026-03-10T12:00:02.000Z',
      });
    }
  });

  it('still show it within the TTL on an instance that does not hear of it (its relay stopped)', async () => {
    const [writer, other] = instances as [Instance, Instance];
    at(10_000);
    expect([await countOn(writer), await countOn(other)]).toEqual([1, 1]);
    await other.changeRelay!.stop();

    expect(await rate(writer, 'bob', 4)).toMatchObject({ data: { rating_count: 2 } });
    at(11_000);
    expect([await countOn(writer), await countOn(other)]).toEqual([2, 1]);
    at(13_999);
    expect(await countOn(other)).toBe(1);
    at(14_000);
    expect(await countOn(other)).toBe(2);
  });
});
