import { neverFetched, type FeedState } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { freshFixturePerTest, type CreateRepositoryFixture } from './repository-fixture.js';

const at = (iso: string) => new Date(iso);

const imported: FeedState = {
  canteenId: 'default',
  feedName: 'full',
  lastAttemptAt: at('2026-03-10T06:00:00.125Z'),
  lastSuccessAt: at('2026-03-10T06:00:00.125Z'),
  httpStatus: 200,
  durationMs: 412,
  outcome: 'imported',
  counts: { added: 14, changed: 2, unchanged: 30, withdrawn: 1 },
  lastError: null,
  failures: 0,
  etag: '"abc-123"',
  lastModified: 'Tue, 10 Mar 2026 05:59:00 GMT',
};

/** What every FeedStateRepository adapter must do: keep each feed's last outcome exactly. */
export function describeFeedStateRepositoryContract(adapterName: string, createFixture: CreateRepositoryFixture): void {
  describe(`FeedStateRepository contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);

    it('knows no state of a feed never fetched', async () => {
      const { feedStates } = store();
      expect(await feedStates.find('default', 'full')).toBeUndefined();
      expect(await feedStates.list('default')).toEqual([]);
    });

    it('keeps every field exactly, the empty ones included, and replaces a state with the next one', async () => {
      const { feedStates } = store();
      await feedStates.save(imported);
      expect(await feedStates.find('default', 'full')).toEqual(imported);

      const failed: FeedState = {
        ...imported,
        lastAttemptAt: at('2026-03-10T07:00:00.000Z'),
        httpStatus: null,
        durationMs: 5003,
        outcome: 'failed',
        lastError: 'https://mensa.example/full.xml: the connection timed out',
        failures: 3,
      };
      await feedStates.save(failed);
      expect(await feedStates.find('default', 'full')).toEqual(failed);

      await feedStates.save(neverFetched('default', 'today'));
      expect(await feedStates.find('default', 'today')).toEqual(neverFetched('default', 'today'));
    });

    it('lets exactly one claim of a due run succeed: the one that still sees the attempt it read', async () => {
      const { feedStates } = store();
      const first = at('2026-03-10T06:00:00.000Z');
      const next = at('2026-03-11T06:00:00.000Z');
      const claims = await Promise.all([
        feedStates.claim('default', 'full', null, first),
        feedStates.claim('default', 'full', null, first),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await feedStates.find('default', 'full'))?.lastAttemptAt).toEqual(first);
      expect(await feedStates.claim('default', 'full', null, next)).toBe(false);
      expect(await feedStates.claim('default', 'today', first, next)).toBe(false);

      await feedStates.save({ ...imported, lastAttemptAt: first });
      expect(await feedStates.claim('default', 'full', first, next)).toBe(true);
      expect(await feedStates.claim('default', 'full', first, next)).toBe(false);
      // The claim moves the attempt only: the rest of the state stays until the run saves its outcome.
      expect(await feedStates.find('default', 'full')).toEqual({ ...imported, lastAttemptAt: next });
      // A run that started before that claim saves its outcome: the later attempt stays, so nobody claims it again.
      const late = { ...imported, lastAttemptAt: first, outcome: 'not_modified' as const, httpStatus: 304 };
      await feedStates.save(late);
      expect(await feedStates.find('default', 'full')).toEqual({ ...late, lastAttemptAt: next });
    });

    it('forgets a feed: its state is gone, a claim finds it never tried, and the other feeds keep theirs', async () => {
      const { feedStates } = store();
      await feedStates.save({ ...imported, outcome: 'failed', failures: 2 });
      await feedStates.save({ ...imported, feedName: 'today' });
      await feedStates.forget('default', 'full');
      await feedStates.forget('default', 'never-saved');
      expect(await feedStates.find('default', 'full')).toBeUndefined();
      expect((await feedStates.list('default')).map((state) => state.feedName)).toEqual(['today']);
      const now = at('2026-03-11T06:00:00.000Z');
      expect(await feedStates.claim('default', 'full', null, now)).toBe(true);
      expect(await feedStates.find('default', 'full')).toEqual({
        ...neverFetched('default', 'full'),
        lastAttemptAt: now,
      });
    });

    it("lists one canteen's feeds by name", async () => {
      const { feedStates, canteens } = store();
      await canteens.save({
        id: 'bistro',
        name: 'Bistro',
        timeZone: 'UTC',
        city: null,
        address: null,
        coordinates: null,
        feeds: [],
      });
      await feedStates.save({ ...imported, feedName: 'today' });
      await feedStates.save(imported);
      await feedStates.save({ ...imported, canteenId: 'bistro' });
      expect((await feedStates.list('default')).map((state) => state.feedName)).toEqual(['full', 'today']);
      expect((await feedStates.list('bistro')).map((state) => state.canteenId)).toEqual(['bistro']);
    });
  });
}
