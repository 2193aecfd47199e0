import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createSqliteAdapters,
  createSqlitePushStore,
  openSqliteDatabase,
  type SqliteDatabase,
} from '@canteen-meals/adapters-sqlite';
import type { PushEntry } from '@canteen-meals/domain/ports';
import { describePushContract } from '@canteen-meals/repository-contract';
import { afterEach, describe, expect, it } from 'vitest';

// A real file per test, in WAL mode with foreign keys, as the server opens it.
function freshDatabaseFile() {
  const folder = mkdtempSync(join(tmpdir(), 'meals-push-'));
  const db = openSqliteDatabase(join(folder, 'meals.db'));
  return {
    db,
    ...createSqliteAdapters(db),
    ...createSqlitePushStore(db),
    cleanup: () => {
      db.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

describePushContract('SQLite', freshDatabaseFile);

describe('SQLite push store: what the contract cannot see', () => {
  let cleanup: (() => void) | undefined;
  afterEach(() => {
    cleanup?.();
    cleanup = undefined;
  });
  const open = () => {
    const fixture = freshDatabaseFile();
    cleanup = fixture.cleanup;
    return fixture;
  };
  const at = new Date('2026-03-10T08:00:00.000Z');
  const entry = (subscriptionId: string, payload: string | null = '{}'): PushEntry => ({
    subscriptionId,
    payload: payload as string,
    topic: 'favourites',
    dueAt: at,
    expiresAt: new Date('2026-03-11T00:00:00.000Z'),
  });
  const count = (db: SqliteDatabase, sql: string) => db.prepare(sql).pluck().get();

  it('writes the key and its entries in one transaction: an entry that fails leaves no key behind', async () => {
    const { db, pushSubscriptions, pushOutbox } = open();
    const { subscription } = await pushSubscriptions.save(
      { userId: 'alice', endpoint: 'https://push.example/a', p256dh: 'k', auth: 'a', expirationTime: null },
      at,
      10,
    );

    await expect(
      pushOutbox.enqueueOnce('digest:default:2026-03-10', [entry(subscription.id), entry(subscription.id, null)], at),
    ).rejects.toThrow(/NOT NULL/);
    expect(count(db, 'SELECT count(*) FROM push_once_keys')).toBe(0);
    expect(count(db, 'SELECT count(*) FROM push_outbox')).toBe(0);

    expect(await pushOutbox.enqueueOnce('digest:default:2026-03-10', [entry(subscription.id)], at)).toBe(true);
    expect(await pushOutbox.depth()).toBe(1);
  });

  it('keeps a failure or an expiry recorded with its last answer, and deletes a delivered entry', async () => {
    const { db, pushSubscriptions, pushOutbox } = open();
    const { subscription } = await pushSubscriptions.save(
      { userId: 'alice', endpoint: 'https://push.example/a', p256dh: 'k', auth: 'a', expirationTime: null },
      at,
      10,
    );
    await pushOutbox.enqueue([entry(subscription.id), entry(subscription.id), entry(subscription.id)]);
    const [delivered, failed, expired] = await pushOutbox.claim(at, 10, 30_000);
    await pushOutbox.settle(delivered!.id, { kind: 'delivered', status: 201 }, at);
    await pushOutbox.settle(failed!.id, { kind: 'failed', status: 413, error: 'the push service answered 413' }, at);
    await pushOutbox.settle(expired!.id, { kind: 'expired', status: null, error: 'expired before an attempt' }, at);

    expect(
      db
        .prepare(
          'SELECT entry_id, state, attempts, leased_until, settled_at, last_status, last_error FROM push_outbox ORDER BY entry_id',
        )
        .all(),
    ).toEqual([
      {
        entry_id: Number(failed!.id),
        state: 'failed',
        attempts: 1,
        leased_until: null,
        settled_at: at.getTime(),
        last_status: 413,
        last_error: 'the push service answered 413',
      },
      {
        entry_id: Number(expired!.id),
        state: 'expired',
        attempts: 1,
        leased_until: null,
        settled_at: at.getTime(),
        last_status: null,
        last_error: 'expired before an attempt',
      },
    ]);
    // A settled entry is settled for good.
    await pushOutbox.retry(failed!.id, at, 500, 'late');
    expect(count(db, "SELECT count(*) FROM push_outbox WHERE state = 'pending'")).toBe(0);
  });

  it('drops an entry whose subscription is gone when a claim finds one (a file written with foreign keys off)', async () => {
    const { db, pushSubscriptions, pushOutbox } = open();
    const { subscription } = await pushSubscriptions.save(
      { userId: 'alice', endpoint: 'https://push.example/a', p256dh: 'k', auth: 'a', expirationTime: null },
      at,
      10,
    );
    db.pragma('foreign_keys = OFF');
    db.prepare(
      "INSERT INTO push_outbox (subscription_id, payload, topic, due_at, expires_at) VALUES ('gone', '{}', 't', ?, ?)",
    ).run(at.getTime() - 1, at.getTime() + 1000);
    db.pragma('foreign_keys = ON');
    await pushOutbox.enqueue([entry(subscription.id)]);

    const claimed = await pushOutbox.claim(at, 1, 30_000);
    expect(claimed.map((claim) => claim.subscriptionId)).toEqual([subscription.id]);
    expect(count(db, 'SELECT count(*) FROM push_outbox')).toBe(1);
  });
});
