import {
  defaultNotificationSettings,
  type Canteen,
  type Meal,
  type MealId,
  type NewPushSubscription,
  type PushSubscription,
  type UserId,
} from '@canteen-meals/domain';
import type { ClaimedPush, PushEntry, PushStore } from '@canteen-meals/domain/ports';
import { describe, expect, it } from 'vitest';
import { freshFixturePerTest, type RepositoryFixture } from './repository-fixture.js';

/**
 * Every port over one fresh store, Web Push's four included: the menu's repositories seed the meals and
 * markings the audience reads.
 */
export interface PushRepositoryFixture extends RepositoryFixture, PushStore {}

export type CreatePushRepositoryFixture = () => PushRepositoryFixture | Promise<PushRepositoryFixture>;

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;
/** The instant most tests act at; the canteen day it is in ends at `endOfDay`. */
const at = new Date('2026-03-10T08:00:00.000Z');
const startOfDay = new Date('2026-03-10T00:00:00.000Z');
const endOfDay = new Date('2026-03-11T00:00:00.000Z');
const leaseMs = 30 * second;
const ms = (instant: Date, plus: number) => new Date(instant.getTime() + plus);

/** A browser's subscription of `userId` at the endpoint `https://push.example/<name>` (an object mother). */
function browser(userId: UserId, name: string, traits: Partial<NewPushSubscription> = {}): NewPushSubscription {
  return {
    userId,
    endpoint: `https://push.example/${name}`,
    p256dh: `p256dh-${name}`,
    auth: `auth-${name}`,
    expirationTime: null,
    ...traits,
  };
}

/**
 * A notification to `subscriptionId`, due at `at` and expiring at the end of the day unless `traits` says otherwise.
 */
function entry(subscriptionId: string, traits: Partial<PushEntry> = {}): PushEntry {
  return {
    subscriptionId,
    payload: '{"title":"Today","body":"Chili","url":"/","tag":"favourites"}',
    topic: 'favourites-2026-03-10',
    dueAt: at,
    expiresAt: endOfDay,
    ...traits,
  };
}

const endpointsOf = (subscriptions: readonly PushSubscription[]) =>
  subscriptions.map((subscription) => subscription.endpoint);
const idsOf = (claims: readonly ClaimedPush[]) => claims.map((claim) => claim.id);

/** What every adapter of Web Push's ports must do, whatever stores them. */
export function describePushContract(adapterName: string, createFixture: CreatePushRepositoryFixture): void {
  describePushSubscriptionContract(adapterName, createFixture);
  describeNotificationSettingsContract(adapterName, createFixture);
  describePushOutboxContract(adapterName, createFixture);
  describePushAudienceContract(adapterName, createFixture);
}

function describePushSubscriptionContract(adapterName: string, createFixture: CreatePushRepositoryFixture): void {
  describe(`PushSubscriptionRepository contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);

    it('saves a new endpoint (created), and a known one again keeping its id and creation, with the new keys', async () => {
      const { pushSubscriptions } = store();
      const first = await pushSubscriptions.save(browser('alice', 'a'), at, 10);
      expect(first.created).toBe(true);
      expect(first.subscription).toEqual({ ...browser('alice', 'a'), id: expect.any(String), createdAt: at });

      const expirationTime = ms(at, 7 * day);
      const again = await pushSubscriptions.save(
        browser('alice', 'a', { p256dh: 'p256dh-new', auth: 'auth-new', expirationTime }),
        ms(at, hour),
        10,
      );
      expect(again).toEqual({
        created: false,
        subscription: {
          ...browser('alice', 'a', { p256dh: 'p256dh-new', auth: 'auth-new', expirationTime }),
          id: first.subscription.id,
          createdAt: at,
        },
      });
      expect(await pushSubscriptions.subscriptionsOf('alice')).toEqual([again.subscription]);

      const other = await pushSubscriptions.save(browser('alice', 'b'), ms(at, 2 * hour), 10);
      expect(other.created).toBe(true);
      expect(other.subscription.id).not.toBe(first.subscription.id);
    });

    it("moves a known endpoint to the person who saves it (a shared browser): it leaves the first person's list", async () => {
      const { pushSubscriptions } = store();
      const alices = await pushSubscriptions.save(browser('alice', 'shared'), at, 10);
      await pushSubscriptions.save(browser('alice', 'own'), ms(at, minute), 10);
      const bobs = await pushSubscriptions.save(browser('bob', 'shared', { p256dh: 'p256dh-bob' }), ms(at, hour), 10);

      expect(bobs).toEqual({
        created: false,
        subscription: {
          ...browser('bob', 'shared', { p256dh: 'p256dh-bob' }),
          id: alices.subscription.id,
          createdAt: at,
        },
      });
      expect(endpointsOf(await pushSubscriptions.subscriptionsOf('alice'))).toEqual(['https://push.example/own']);
      expect(await pushSubscriptions.subscriptionsOf('bob')).toEqual([bobs.subscription]);
    });

    it("lists a person's subscriptions oldest first, and no one else's", async () => {
      const { pushSubscriptions } = store();
      await pushSubscriptions.save(browser('alice', 'later'), ms(at, 2 * minute), 10);
      await pushSubscriptions.save(browser('bob', 'bobs'), ms(at, minute), 10);
      await pushSubscriptions.save(browser('alice', 'earlier'), at, 10);

      expect(endpointsOf(await pushSubscriptions.subscriptionsOf('alice'))).toEqual([
        'https://push.example/earlier',
        'https://push.example/later',
      ]);
      expect(await pushSubscriptions.subscriptionsOf('carol')).toEqual([]);
    });

    it("keeps at most `maxPerPerson`: the person's oldest go, with their waiting notifications", async () => {
      const { pushSubscriptions, pushOutbox } = store();
      const oldest = await pushSubscriptions.save(browser('alice', 'one'), at, 2);
      const middle = await pushSubscriptions.save(browser('alice', 'two'), ms(at, minute), 2);
      const bobs = await pushSubscriptions.save(browser('bob', 'bobs'), ms(at, minute), 2);
      await pushOutbox.enqueue([
        entry(oldest.subscription.id),
        entry(oldest.subscription.id),
        entry(middle.subscription.id),
        entry(bobs.subscription.id),
      ]);
      expect(await pushOutbox.depth()).toBe(4);

      const newest = await pushSubscriptions.save(browser('alice', 'three'), ms(at, 2 * minute), 2);

      expect(newest.created).toBe(true);
      expect(endpointsOf(await pushSubscriptions.subscriptionsOf('alice'))).toEqual([
        'https://push.example/two',
        'https://push.example/three',
      ]);
      expect(await pushSubscriptions.subscriptionsOf('bob')).toEqual([bobs.subscription]);
      expect(await pushOutbox.depth()).toBe(2);
      const claimed = await pushOutbox.claim(at, 10, leaseMs);
      expect(claimed.map((claim) => claim.subscriptionId).sort()).toEqual(
        [middle.subscription.id, bobs.subscription.id].sort(),
      );
    });

    it("removes the person's own subscription only: another's endpoint stays and the answer is false", async () => {
      const { pushSubscriptions, pushOutbox } = store();
      const alices = await pushSubscriptions.save(browser('alice', 'a'), at, 10);
      const bobs = await pushSubscriptions.save(browser('bob', 'b'), at, 10);
      await pushOutbox.enqueue([entry(alices.subscription.id), entry(bobs.subscription.id)]);

      expect(await pushSubscriptions.remove('alice', 'https://push.example/b')).toBe(false);
      expect(await pushSubscriptions.subscriptionsOf('bob')).toEqual([bobs.subscription]);
      expect(await pushSubscriptions.remove('alice', 'https://push.example/unknown')).toBe(false);

      expect(await pushSubscriptions.remove('alice', 'https://push.example/a')).toBe(true);
      expect(await pushSubscriptions.subscriptionsOf('alice')).toEqual([]);
      expect(await pushSubscriptions.remove('alice', 'https://push.example/a')).toBe(false);
      // Its notifications went with it.
      expect(await pushOutbox.depth()).toBe(1);
    });

    it('lists the subscriptions of many people by user id (code unit order), then age; unknown people have none', async () => {
      const { pushSubscriptions } = store();
      await pushSubscriptions.save(browser('bob', 'bob-new'), ms(at, 3 * minute), 10);
      await pushSubscriptions.save(browser('alice', 'alice'), ms(at, 2 * minute), 10);
      await pushSubscriptions.save(browser('bob', 'bob-old'), ms(at, minute), 10);
      // "Zoe" comes before "alice": upper case letters come before lower case ones, whatever a locale would say.
      await pushSubscriptions.save(browser('Zoe', 'zoe'), ms(at, 4 * minute), 10);
      await pushSubscriptions.save(browser('carol', 'carol'), at, 10);

      const listed = await pushSubscriptions.subscriptionsOfUsers(['bob', 'dave', 'alice', 'Zoe']);
      expect(listed.map((subscription) => [subscription.userId, subscription.endpoint])).toEqual([
        ['Zoe', 'https://push.example/zoe'],
        ['alice', 'https://push.example/alice'],
        ['bob', 'https://push.example/bob-old'],
        ['bob', 'https://push.example/bob-new'],
      ]);
      expect(listed[0]).toEqual({ ...browser('Zoe', 'zoe'), id: expect.any(String), createdAt: ms(at, 4 * minute) });
      expect(await pushSubscriptions.subscriptionsOfUsers([])).toEqual([]);
    });

    it('removes a subscription the push service says is gone, with its waiting notifications; an unknown id is no error', async () => {
      const { pushSubscriptions, pushOutbox } = store();
      const gone = await pushSubscriptions.save(browser('alice', 'gone'), at, 10);
      const kept = await pushSubscriptions.save(browser('alice', 'kept'), ms(at, minute), 10);
      await pushOutbox.enqueue([
        entry(gone.subscription.id),
        entry(gone.subscription.id, { dueAt: ms(at, hour) }),
        entry(kept.subscription.id),
      ]);

      await pushSubscriptions.removeGone(gone.subscription.id);
      await pushSubscriptions.removeGone('no-such-subscription');

      expect(await pushSubscriptions.subscriptionsOf('alice')).toEqual([kept.subscription]);
      expect(await pushOutbox.depth()).toBe(1);
      expect((await pushOutbox.claim(ms(at, 2 * hour), 10, leaseMs)).map((claim) => claim.subscriptionId)).toEqual([
        kept.subscription.id,
      ]);
    });

    it("erases every subscription of the person (GDPR art. 17) with their notifications, answering how many; others' stay", async () => {
      const { pushSubscriptions, pushOutbox } = store();
      const first = await pushSubscriptions.save(browser('alice', 'a'), at, 10);
      await pushSubscriptions.save(browser('alice', 'b'), ms(at, minute), 10);
      const bobs = await pushSubscriptions.save(browser('bob', 'c'), at, 10);
      await pushOutbox.enqueue([entry(first.subscription.id), entry(bobs.subscription.id)]);

      expect(await pushSubscriptions.eraseAll('alice')).toBe(2);
      expect(await pushSubscriptions.subscriptionsOf('alice')).toEqual([]);
      expect(await pushSubscriptions.subscriptionsOf('bob')).toEqual([bobs.subscription]);
      expect(await pushOutbox.depth()).toBe(1);
      expect(await pushSubscriptions.eraseAll('alice')).toBe(0);
      expect(await pushSubscriptions.eraseAll('nobody')).toBe(0);
    });
  });
}

function describeNotificationSettingsContract(adapterName: string, createFixture: CreatePushRepositoryFixture): void {
  describe(`NotificationSettingsRepository contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);

    it('answers the defaults for a person who set none: favourites today on, sold out off, English', async () => {
      const { notificationSettings } = store();
      expect(defaultNotificationSettings).toEqual({ favouritesToday: true, soldOut: false, language: 'en' });
      expect(await notificationSettings.settingsOf('alice')).toEqual({
        favouritesToday: true,
        soldOut: false,
        language: 'en',
      });
    });

    it('saves, replaces and erases the settings (erase answers whether there were any)', async () => {
      const { notificationSettings } = store();
      await notificationSettings.save('alice', { favouritesToday: false, soldOut: true, language: 'de' });
      expect(await notificationSettings.settingsOf('alice')).toEqual({
        favouritesToday: false,
        soldOut: true,
        language: 'de',
      });
      expect(await notificationSettings.settingsOf('bob')).toEqual(defaultNotificationSettings);

      await notificationSettings.save('alice', { favouritesToday: true, soldOut: true, language: 'en' });
      expect(await notificationSettings.settingsOf('alice')).toEqual({
        favouritesToday: true,
        soldOut: true,
        language: 'en',
      });

      expect(await notificationSettings.erase('alice')).toBe(true);
      expect(await notificationSettings.settingsOf('alice')).toEqual(defaultNotificationSettings);
      expect(await notificationSettings.erase('alice')).toBe(false);
      expect(await notificationSettings.erase('nobody')).toBe(false);
    });

    it('answers the settings of many people by user id, the defaults for those who set none', async () => {
      const { notificationSettings } = store();
      await notificationSettings.save('alice', { favouritesToday: false, soldOut: false, language: 'de' });
      await notificationSettings.save('carol', { favouritesToday: true, soldOut: true, language: 'en' });

      const settings = await notificationSettings.settingsOfUsers(['alice', 'bob']);
      expect(new Map(settings)).toEqual(
        new Map([
          ['alice', { favouritesToday: false, soldOut: false, language: 'de' }],
          ['bob', defaultNotificationSettings],
        ]),
      );
      expect((await notificationSettings.settingsOfUsers([])).size).toBe(0);
    });
  });
}

function describePushOutboxContract(adapterName: string, createFixture: CreatePushRepositoryFixture): void {
  describe(`PushOutbox contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);
    /** Subscriptions of alice and bob, saved at `at`. */
    const withSubscriptions = async () => {
      const { pushSubscriptions } = store();
      const alice = (await pushSubscriptions.save(browser('alice', 'a'), at, 10)).subscription;
      const bob = (await pushSubscriptions.save(browser('bob', 'b'), at, 10)).subscription;
      return { alice, bob };
    };

    it('writes the entries of a key once: true, then false for the same key without writing again', async () => {
      const { alice, bob } = await withSubscriptions();
      const { pushOutbox } = store();
      expect(await pushOutbox.enqueueOnce('digest:default:2026-03-10', [entry(alice.id), entry(bob.id)], at)).toBe(
        true,
      );
      expect(await pushOutbox.depth()).toBe(2);

      expect(await pushOutbox.enqueueOnce('digest:default:2026-03-10', [entry(alice.id)], ms(at, minute))).toBe(false);
      expect(await pushOutbox.depth()).toBe(2);

      expect(await pushOutbox.enqueueOnce('sold-out:7', [entry(alice.id, { topic: 'sold-out-7' })], at)).toBe(true);
      expect(await pushOutbox.depth()).toBe(3);
    });

    it('tells whether a key was written, with or without entries', async () => {
      const { alice } = await withSubscriptions();
      const { pushOutbox } = store();
      expect(await pushOutbox.usedOnce('digest:default:2026-03-10')).toBe(false);
      await pushOutbox.enqueueOnce('digest:default:2026-03-10', [entry(alice.id)], at);
      await pushOutbox.enqueueOnce('digest:default:2026-03-11', [], at);
      expect(await pushOutbox.usedOnce('digest:default:2026-03-10')).toBe(true);
      expect(await pushOutbox.usedOnce('digest:default:2026-03-11')).toBe(true);
      expect(await pushOutbox.usedOnce('digest:default:2026-03-12')).toBe(false);
      expect(await pushOutbox.usedOnce('sold-out:7')).toBe(false);
    });

    it('keeps a key written with no entry: that digest is done', async () => {
      const { alice } = await withSubscriptions();
      const { pushOutbox } = store();
      expect(await pushOutbox.enqueueOnce('digest:default:2026-03-10', [], at)).toBe(true);
      expect(await pushOutbox.enqueueOnce('digest:default:2026-03-10', [entry(alice.id)], at)).toBe(false);
      expect(await pushOutbox.depth()).toBe(0);
    });

    it('writes a key with its entries as one: of two at once with the same key, one writes all of its entries, the other none', async () => {
      const { alice, bob } = await withSubscriptions();
      const { pushOutbox } = store();
      const one = [entry(alice.id)];
      const three = [entry(alice.id), entry(bob.id), entry(bob.id, { dueAt: ms(at, hour) })];
      const answers = await Promise.all([
        pushOutbox.enqueueOnce('sold-out:9', one, at),
        pushOutbox.enqueueOnce('sold-out:9', three, at),
      ]);
      expect(answers.filter(Boolean)).toHaveLength(1);
      expect(await pushOutbox.depth()).toBe(answers[0] ? 1 : 3);
    });

    it('claims the due entries (dueAt <= now < expiresAt) in due order, up to the limit, each with its subscription', async () => {
      const { alice, bob } = await withSubscriptions();
      const { pushOutbox } = store();
      await pushOutbox.enqueue([
        entry(alice.id, { payload: 'now', dueAt: at }),
        entry(bob.id, { payload: 'later', dueAt: ms(at, 10 * second) }),
        entry(alice.id, { payload: 'expired', dueAt: ms(at, -hour), expiresAt: at }),
        entry(bob.id, { payload: 'earlier', dueAt: ms(at, -minute), topic: 'sold-out-3' }),
      ]);
      expect(await pushOutbox.claim(ms(at, -hour - minute), 10, leaseMs)).toEqual([]);

      const claimed = await pushOutbox.claim(at, 10, leaseMs);
      expect(claimed.map((claim) => claim.payload)).toEqual(['earlier', 'now']);
      expect(claimed[0]).toEqual({
        id: expect.any(String),
        subscriptionId: bob.id,
        payload: 'earlier',
        topic: 'sold-out-3',
        dueAt: ms(at, -minute),
        expiresAt: endOfDay,
        attempts: 0,
        subscription: bob,
      });
      expect(claimed[1]?.subscription).toEqual(alice);
      expect(new Set(idsOf(claimed)).size).toBe(2);

      // The limit holds (the two claimed are leased), and no entry is claimed at or after its expiry.
      const more = await pushOutbox.claim(ms(at, 10 * second), 1, leaseMs);
      expect(more.map((claim) => claim.payload)).toEqual(['later']);
      expect(await pushOutbox.claim(endOfDay, 10, leaseMs)).toEqual([]);
      expect(await pushOutbox.claim(ms(at, 2 * hour), 0, leaseMs)).toEqual([]);
      // The claim at the end of the day let every entry expire: none waits any more.
      expect(await pushOutbox.depth()).toBe(0);
    });

    it('leases a claimed entry: not claimed again before the lease ends, claimable by anyone once it has', async () => {
      const { alice } = await withSubscriptions();
      const { pushOutbox } = store();
      await pushOutbox.enqueue([entry(alice.id), entry(alice.id, { dueAt: ms(at, 10 * second) })]);

      const first = await pushOutbox.claim(at, 10, leaseMs);
      expect(first).toHaveLength(1);
      const next = await pushOutbox.claim(ms(at, 10 * second), 10, leaseMs);
      expect(next).toHaveLength(1);
      expect(next[0]?.id).not.toBe(first[0]?.id);
      expect(await pushOutbox.claim(ms(at, leaseMs - 1), 10, leaseMs)).toEqual([]);

      // The first lease ran out without a settlement (a crash): due again, with no attempt counted.
      const again = await pushOutbox.claim(ms(at, leaseMs), 10, leaseMs);
      expect(again).toEqual([{ ...first[0], attempts: 0 }]);
      expect(await pushOutbox.claim(ms(at, leaseMs + 10 * second - 1), 10, leaseMs)).toEqual([]);
      expect(idsOf(await pushOutbox.claim(ms(at, leaseMs + 10 * second), 10, leaseMs))).toEqual(idsOf(next));
    });

    it('drops, when claiming, the entries whose subscription is gone', async () => {
      const { alice } = await withSubscriptions();
      const { pushOutbox } = store();
      await pushOutbox.enqueue([entry('no-such-subscription', { dueAt: ms(at, -minute) }), entry(alice.id)]);

      const claimed = await pushOutbox.claim(at, 10, leaseMs);
      expect(claimed.map((claim) => [claim.subscriptionId, claim.subscription])).toEqual([[alice.id, alice]]);
      expect(await pushOutbox.depth()).toBe(1);
      expect(await pushOutbox.claim(ms(at, leaseMs), 10, leaseMs)).toHaveLength(1);
    });

    it('settles an attempt: delivered, failed or expired, the entry leaves the queue for good', async () => {
      const { alice, bob } = await withSubscriptions();
      const { pushOutbox } = store();
      await pushOutbox.enqueue([
        entry(alice.id, { payload: 'a' }),
        entry(bob.id, { payload: 'b' }),
        entry(alice.id, { payload: 'c' }),
      ]);
      const [a, b, c] = await pushOutbox.claim(at, 10, leaseMs);
      expect(await pushOutbox.depth()).toBe(3);

      await pushOutbox.settle(a!.id, { kind: 'delivered', status: 201 }, ms(at, second));
      expect(await pushOutbox.depth()).toBe(2);
      await pushOutbox.settle(
        b!.id,
        { kind: 'failed', status: 400, error: 'the push service answered 400' },
        ms(at, second),
      );
      expect(await pushOutbox.depth()).toBe(1);
      await pushOutbox.settle(
        c!.id,
        { kind: 'expired', status: null, error: 'expired before an attempt' },
        ms(at, second),
      );
      expect(await pushOutbox.depth()).toBe(0);

      expect(await pushOutbox.claim(ms(at, leaseMs), 10, leaseMs)).toEqual([]);
      expect(await pushOutbox.claim(ms(at, 2 * hour), 10, leaseMs)).toEqual([]);
    });

    it('retries an attempt at a later instant: due then (the lease ended), one more attempt counted', async () => {
      const { alice } = await withSubscriptions();
      const { pushOutbox } = store();
      await pushOutbox.enqueue([entry(alice.id)]);
      const [claimed] = await pushOutbox.claim(at, 10, leaseMs);

      const retryAt = ms(at, 5 * second);
      await pushOutbox.retry(claimed!.id, retryAt, 503, 'the push service answered 503');
      expect(await pushOutbox.depth()).toBe(1);
      expect(await pushOutbox.claim(ms(retryAt, -1), 10, leaseMs)).toEqual([]);

      // Before the first lease would have ended: a retry ends it.
      const [retried] = await pushOutbox.claim(retryAt, 10, leaseMs);
      expect(retried).toEqual({ ...claimed, dueAt: retryAt, attempts: 1 });

      await pushOutbox.retry(retried!.id, ms(at, hour), null, 'timed out');
      const [third] = await pushOutbox.claim(ms(at, hour), 10, leaseMs);
      expect(third).toMatchObject({ id: claimed!.id, dueAt: ms(at, hour), attempts: 2 });
    });

    it('ignores a settlement or a retry of an entry it does not hold', async () => {
      const { alice } = await withSubscriptions();
      const { pushOutbox } = store();
      await pushOutbox.enqueue([entry(alice.id)]);

      for (const id of ['no-such-entry', '999999999']) {
        await pushOutbox.settle(id, { kind: 'delivered', status: 201 }, at);
        await pushOutbox.retry(id, ms(at, hour), 500, 'the push service answered 500');
      }

      expect(await pushOutbox.depth()).toBe(1);
      expect(await pushOutbox.claim(at, 10, leaseMs)).toMatchObject([{ attempts: 0, dueAt: at }]);
    });

    it('counts the entries waiting, due or not, as its depth', async () => {
      const { alice, bob } = await withSubscriptions();
      const { pushOutbox } = store();
      expect(await pushOutbox.depth()).toBe(0);
      await pushOutbox.enqueue([]);
      expect(await pushOutbox.depth()).toBe(0);
      await pushOutbox.enqueue([
        entry(alice.id),
        entry(bob.id, { dueAt: ms(at, hour) }),
        entry(bob.id, { dueAt: ms(at, 2 * hour) }),
      ]);
      expect(await pushOutbox.depth()).toBe(3);
      await pushOutbox.claim(at, 10, leaseMs);
      expect(await pushOutbox.depth()).toBe(3);
    });

    it('lets an entry that expired before any attempt leave the queue at the next claim (the depth counts what can still go out)', async () => {
      const { alice, bob } = await withSubscriptions();
      const { pushOutbox } = store();
      await pushOutbox.enqueue([
        entry(alice.id, { expiresAt: ms(at, hour) }),
        entry(bob.id, { dueAt: ms(at, 2 * hour), expiresAt: ms(at, 3 * hour) }),
      ]);
      expect(await pushOutbox.depth()).toBe(2);
      // Past the first one's end, before the second is due: nothing to claim, and the first is gone from the queue.
      expect(await pushOutbox.claim(ms(at, 90 * 60_000), 10, leaseMs)).toEqual([]);
      expect(await pushOutbox.depth()).toBe(1);
    });

    it('never hands one entry to two claims made at once', async () => {
      const { alice, bob } = await withSubscriptions();
      const { pushOutbox } = store();
      const entries = Array.from({ length: 6 }, (_, index) =>
        entry(index % 2 === 0 ? alice.id : bob.id, { dueAt: ms(at, -index * second), payload: `n${index}` }),
      );
      await pushOutbox.enqueue(entries);

      const [one, other] = await Promise.all([pushOutbox.claim(at, 4, leaseMs), pushOutbox.claim(at, 4, leaseMs)]);
      const both = [...idsOf(one), ...idsOf(other)];
      expect(new Set(both).size).toBe(both.length);
      expect(both).toHaveLength(6);
      expect(await pushOutbox.claim(at, 10, leaseMs)).toEqual([]);
    });
  });
}

/** A serving of the dish `name` (the default canteen unless `traits` says otherwise), `hours` after the day's start. */
const serving = (id: MealId, name: string, hours: number, traits: Partial<Meal> = {}): Meal => ({
  id,
  name,
  servedAt: ms(startOfDay, hours * hour),
  rateable: true,
  ...traits,
});

const canteen = (id: string): Canteen => ({
  id,
  name: id,
  timeZone: 'UTC',
  city: null,
  address: null,
  coordinates: null,
  feeds: [],
});
const window = { from: startOfDay, to: endOfDay };

function describePushAudienceContract(adapterName: string, createFixture: CreatePushRepositoryFixture): void {
  describe(`PushAudience contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);

    it("answers the day's servings (not withdrawn) of every dish each person marked any serving of, by person, time and meal id", async () => {
      const { meals, markings, canteens, pushAudience } = store();
      await canteens.save(canteen('nord'));
      await meals.upsertMany([
        serving(1, 'Chili', -7 * 24 + 12), // a week ago
        serving(2, 'Chili', 12, { labels: ['vegan', 'vegetarian'] }),
        serving(3, 'Soup', 11),
        serving(4, 'chili', 13, { position: 1 }), // the same dish: the name key folds case
        serving(5, 'Pasta', 12),
        serving(6, 'Pasta', -24 + 12), // yesterday
        serving(7, 'Chili', 24 + 12), // tomorrow
        serving(8, 'Chili', 12, { canteenId: 'nord' }), // another canteen's chili is another dish
        serving(9, 'Salad', 12),
        serving(10, 'Salad', 0), // at the day's start: in it
        serving(11, 'Salad', 24), // at the day's end: in the next day
        serving(12, 'Curry', -48), // marked, then withdrawn: its dish stays a favourite
        serving(13, 'Curry', 9),
        serving(14, 'Stew', 10), // marked by nobody
      ]);
      await markings.setMarked('alice', 1, true); // a past serving: the dish's servings of today count
      await markings.setMarked('alice', 2, true); // and one of today's: each serving still once
      await markings.setMarked('alice', 6, true);
      await markings.setMarked('alice', 9, true);
      await markings.setMarked('bob', 3, true);
      await markings.setMarked('bob', 8, true);
      await markings.setMarked('Carl', 12, true);
      await meals.withdraw(12, at);
      await meals.withdraw(5, at); // today's Pasta, withdrawn: not served

      const found = await pushAudience.markedServingsOn('default', '2026-03-10', window);
      expect(found.map((marked) => [marked.userId, marked.mealId])).toEqual([
        ['Carl', 13],
        ['alice', 10],
        ['alice', 2],
        ['alice', 9],
        ['alice', 4],
        ['bob', 3],
      ]);
      const dishOf = (mealId: MealId) => found.find((marked) => marked.mealId === mealId)!.dishId;
      expect(dishOf(2)).toBe(dishOf(4));
      expect(dishOf(2)).not.toBe(dishOf(9));
      expect(found[2]).toEqual({
        userId: 'alice',
        mealId: 2,
        dishId: expect.any(Number),
        name: 'Chili',
        labels: ['vegan', 'vegetarian'],
        servedAt: ms(startOfDay, 12 * hour),
      });
      expect(found[4]).toMatchObject({ name: 'chili', labels: [], servedAt: ms(startOfDay, 13 * hour) });

      expect(
        (await pushAudience.markedServingsOn('nord', '2026-03-10', window)).map((marked) => [
          marked.userId,
          marked.mealId,
        ]),
      ).toEqual([['bob', 8]]);
      expect(
        await pushAudience.markedServingsOn('default', '2026-03-12', {
          from: ms(startOfDay, 2 * day),
          to: ms(startOfDay, 3 * day),
        }),
      ).toEqual([]);
      expect(await pushAudience.markedServingsOn('elsewhere', '2026-03-10', window)).toEqual([]);
    });

    it('answers the people who marked a meal (that meal, not its dish)', async () => {
      const { meals, markings, pushAudience } = store();
      await meals.upsertMany([serving(1, 'Chili', 12), serving(2, 'Chili', -12), serving(3, 'Soup', 12)]);
      await markings.setMarked('bob', 1, true);
      await markings.setMarked('alice', 1, true);
      await markings.setMarked('carol', 2, true);
      await markings.setMarked('dave', 1, true);
      await markings.setMarked('dave', 1, false);

      expect([...(await pushAudience.markersOf(1))].sort()).toEqual(['alice', 'bob']);
      expect(await pushAudience.markersOf(2)).toEqual(['carol']);
      expect(await pushAudience.markersOf(3)).toEqual([]);
      expect(await pushAudience.markersOf(99)).toEqual([]);
    });
  });
}
