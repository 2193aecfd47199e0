import { describe, expect, it } from 'vitest';
import { InMemoryCanteenRepository, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import { GetCanteenDay } from '../src/index.js';
import type { Clock } from '../src/ports.js';

// `today` and `tomorrow` of a request are days on the canteen's own calendar.
describe('GetCanteenDay', () => {
  const at = (instant: string): Clock => ({ now: () => new Date(instant) });
  const canteensIn = async (timeZone: string) => {
    const canteens = new InMemoryCanteenRepository(new InMemoryDatabase({ defaultTimeZone: 'Europe/Berlin' }));
    await canteens.save({ id: 'far', name: 'Far', timeZone, city: null, address: null, coordinates: null, feeds: [] });
    return canteens;
  };

  it("answers the canteen's calendar day, and days ahead of it, across midnight in its time zone", async () => {
    const canteens = await canteensIn('Pacific/Auckland');
    // 10:59 UTC on 2026-03-10 is 23:59 in Auckland (UTC+13); one minute later it is the 11th there.
    expect(
      await new GetCanteenDay({ canteens, clock: at('2026-03-10T10:59:00Z') }).execute({
        canteenId: 'far',
        daysAhead: 0,
      }),
    ).toEqual({ ok: true, value: '2026-03-10' });
    expect(
      await new GetCanteenDay({ canteens, clock: at('2026-03-10T11:00:00Z') }).execute({
        canteenId: 'far',
        daysAhead: 0,
      }),
    ).toEqual({ ok: true, value: '2026-03-11' });
    expect(
      await new GetCanteenDay({ canteens, clock: at('2026-03-10T11:00:00Z') }).execute({
        canteenId: 'far',
        daysAhead: 1,
      }),
    ).toEqual({ ok: true, value: '2026-03-12' });
    // The server's (and Berlin's) day is still the 10th.
    expect(
      await new GetCanteenDay({ canteens, clock: at('2026-03-10T11:00:00Z') }).execute({
        canteenId: 'default',
        daysAhead: 0,
      }),
    ).toEqual({ ok: true, value: '2026-03-10' });
  });

  it('refuses an unknown canteen', async () => {
    const canteens = await canteensIn('Europe/Berlin');
    const day = await new GetCanteenDay({ canteens, clock: at('2026-03-10T11:00:00Z') }).execute({
      canteenId: 'nowhere',
      daysAhead: 0,
    });
    expect(day.ok ? day.value : day.refusal.code).toBe('canteen_not_found');
  });
});
