import { defaultCanteenId } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { freshFixturePerTest, type CreateRepositoryFixture } from './repository-fixture.js';

/** What every ClosedDayRepository adapter must do. */
export function describeClosedDayRepositoryContract(adapterName: string, createFixture: CreateRepositoryFixture): void {
  describe(`ClosedDayRepository contract: ${adapterName}`, () => {
    const store = freshFixturePerTest(createFixture);
    const other = {
      id: 'bistro-7',
      name: 'Bistro 7',
      timeZone: 'UTC',
      city: null,
      address: null,
      coordinates: null,
      feeds: [],
    };

    it('knows no closed day at first', async () => {
      expect(await store().closedDays.closedIn(defaultCanteenId, '2000-01-01', '2100-12-31')).toEqual([]);
    });

    it('records days as closed, answers those in the range (both ends included) ascending, per canteen', async () => {
      const { closedDays, canteens } = store();
      await canteens.save(other);
      await closedDays.record(defaultCanteenId, [
        { date: '2026-03-12', closed: true },
        { date: '2026-03-09', closed: true },
        { date: '2026-03-20', closed: true },
        { date: '2026-03-10', closed: false },
      ]);
      await closedDays.record(other.id, [{ date: '2026-03-11', closed: true }]);
      expect(await closedDays.closedIn(defaultCanteenId, '2026-03-09', '2026-03-12')).toEqual([
        '2026-03-09',
        '2026-03-12',
      ]);
      expect(await closedDays.closedIn(defaultCanteenId, '2026-03-10', '2026-03-11')).toEqual([]);
      expect(await closedDays.closedIn(other.id, '2026-03-01', '2026-03-31')).toEqual(['2026-03-11']);
    });

    it('records a day twice as closed once, and forgets it when it is recorded as open', async () => {
      const { closedDays } = store();
      await closedDays.record(defaultCanteenId, [{ date: '2026-03-12', closed: true }]);
      await closedDays.record(defaultCanteenId, [
        { date: '2026-03-12', closed: true },
        { date: '2026-03-13', closed: true },
      ]);
      expect(await closedDays.closedIn(defaultCanteenId, '2026-03-01', '2026-03-31')).toEqual([
        '2026-03-12',
        '2026-03-13',
      ]);
      await closedDays.record(defaultCanteenId, [{ date: '2026-03-12', closed: false }]);
      expect(await closedDays.closedIn(defaultCanteenId, '2026-03-01', '2026-03-31')).toEqual(['2026-03-13']);
      await closedDays.record(defaultCanteenId, []);
      expect(await closedDays.closedIn(defaultCanteenId, '2026-03-01', '2026-03-31')).toEqual(['2026-03-13']);
    });

    it('refuses a day of a canteen that does not exist', async () => {
      await expect(store().closedDays.record('nowhere', [{ date: '2026-03-12', closed: true }])).rejects.toThrow();
    });
  });
}
