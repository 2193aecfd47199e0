import { createPostgresPushStore, openPostgres, type PostgresDatabase } from '@canteen-meals/adapters-postgres';
import type { PushEntry, PushStore } from '@canteen-meals/domain/ports';
import { describePushContract } from '@canteen-meals/repository-contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databasePerFile, emptyMenuTablesSql } from './support/test-database.js';

const databaseUrl = databasePerFile();
// Two instances on one database, as two servers would share it: the contract runs on the first.
let first: PostgresDatabase;
let second: PostgresDatabase;
let firstStore: PushStore;
let secondStore: PushStore;
beforeAll(async () => {
  first = await openPostgres(databaseUrl(), { poolSize: 8 });
  second = await openPostgres(databaseUrl(), { poolSize: 4 });
  firstStore = createPostgresPushStore(first.pool);
  secondStore = createPostgresPushStore(second.pool);
});
afterAll(async () => {
  await first?.close();
  await second?.close();
});

const emptyPushTablesSql =
  'DELETE FROM push_outbox; DELETE FROM push_once_keys; DELETE FROM push_subscriptions; DELETE FROM notification_settings;';

// One migrated database for the file; each test starts from empty tables and the `default` canteen alone.
describePushContract('PostgreSQL', async () => {
  await first.pool.query(`${emptyPushTablesSql} ${emptyMenuTablesSql}`);
  return { ...first.adapters, ...firstStore };
});

describe('the push store on PostgreSQL: two instances, and what the contract cannot see', () => {
  beforeEach(async () => {
    await first.pool.query(emptyPushTablesSql);
  });
  const at = new Date('2026-03-10T08:00:00.000Z');
  const entry = (subscriptionId: string, payload: string | null = '{}'): PushEntry => ({
    subscriptionId,
    payload: payload as string,
    topic: 'favourites',
    dueAt: at,
    expiresAt: new Date('2026-03-11T00:00:00.000Z'),
  });
  const subscribed = async (count: number) => {
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const saved = await firstStore.pushSubscriptions.save(
        {
          userId: `user-${n % 7}`,
          endpoint: `https://push.example/${n}`,
          p256dh: 'k',
          auth: 'a',
          expirationTime: null,
        },
        at,
        10,
      );
      ids.push(saved.subscription.id);
    }
    return ids;
  };
  const count = async (sql: string) => (await first.pool.query<{ n: number }>(`SELECT (${sql})::int AS n`)).rows[0]!.n;

  it('never lets two instances claim one entry: every entry is claimed exactly once by six workers', async () => {
    const ids = await subscribed(20);
    await firstStore.pushOutbox.enqueue(ids.flatMap((id) => [entry(id), entry(id), entry(id), entry(id), entry(id)]));
    const claimed: string[] = [];
    const worker = async (store: PushStore) => {
      // A lease far longer than the test: nothing claimed is due again, so a second claim would be a double claim.
      for (
        let claims = await store.pushOutbox.claim(at, 3, 60 * 60 * 1000);
        claims.length > 0;
        claims = await store.pushOutbox.claim(at, 3, 60 * 60 * 1000)
      ) {
        claimed.push(...claims.map((claim) => claim.id));
      }
    };
    await Promise.all([firstStore, secondStore, firstStore, secondStore, firstStore, secondStore].map(worker));

    expect(claimed).toHaveLength(100);
    expect(new Set(claimed).size).toBe(100);
  });

  it('writes a key once across instances: of many enqueueOnce with one key at once, one writes its entries', async () => {
    const ids = await subscribed(4);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        (n % 2 === 0 ? firstStore : secondStore).pushOutbox.enqueueOnce(
          'digest:default:2026-03-10',
          ids.map((id) => entry(id)),
          at,
        ),
      ),
    );
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await firstStore.pushOutbox.depth()).toBe(4);
  });

  it('writes the key and its entries in one transaction: an entry that fails leaves no key behind', async () => {
    const [id] = await subscribed(1);
    await expect(firstStore.pushOutbox.enqueueOnce('sold-out:7', [entry(id!), entry(id!, null)], at)).rejects.toThrow(
      /null value/,
    );
    expect(await count('SELECT count(*) FROM push_once_keys')).toBe(0);
    expect(await count('SELECT count(*) FROM push_outbox')).toBe(0);

    expect(await firstStore.pushOutbox.enqueueOnce('sold-out:7', [entry(id!)], at)).toBe(true);
    expect(await firstStore.pushOutbox.depth()).toBe(1);
  });

  it('keeps a failure or an expiry recorded with its last answer, deletes a delivered entry, and settles once', async () => {
    const [id] = await subscribed(1);
    await firstStore.pushOutbox.enqueue([entry(id!), entry(id!), entry(id!)]);
    const [delivered, failed, expired] = await firstStore.pushOutbox.claim(at, 10, 30_000);
    await firstStore.pushOutbox.settle(delivered!.id, { kind: 'delivered', status: 201 }, at);
    await firstStore.pushOutbox.settle(
      failed!.id,
      { kind: 'failed', status: 413, error: 'the push service answered 413' },
      at,
    );
    await firstStore.pushOutbox.settle(
      expired!.id,
      { kind: 'expired', status: null, error: 'expired before an attempt' },
      at,
    );
    await firstStore.pushOutbox.retry(failed!.id, at, 500, 'late');

    const { rows } = await first.pool.query(
      'SELECT entry_id::text, state, attempts, leased_until, settled_at, last_status, last_error FROM push_outbox ORDER BY entry_id',
    );
    expect(rows).toEqual([
      {
        entry_id: failed!.id,
        state: 'failed',
        attempts: 1,
        leased_until: null,
        settled_at: at,
        last_status: 413,
        last_error: 'the push service answered 413',
      },
      {
        entry_id: expired!.id,
        state: 'expired',
        attempts: 1,
        leased_until: null,
        settled_at: at,
        last_status: null,
        last_error: 'expired before an attempt',
      },
    ]);
  });

  it('moves a shared endpoint to the one instance that saves it last; two saves of one new endpoint at once make one row', async () => {
    const saves = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        (n % 2 === 0 ? firstStore : secondStore).pushSubscriptions.save(
          { userId: 'alice', endpoint: 'https://push.example/new', p256dh: `k${n}`, auth: 'a', expirationTime: null },
          at,
          10,
        ),
      ),
    );
    expect(saves.filter((save) => save.created)).toHaveLength(1);
    expect(new Set(saves.map((save) => save.subscription.id)).size).toBe(1);
    expect(await firstStore.pushSubscriptions.subscriptionsOf('alice')).toHaveLength(1);
  });
});
