import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localDayOf, localDayRange } from '../src/index.js';

const hours = (range: { from: Date; until: Date }) => (range.until.getTime() - range.from.getTime()) / 3_600_000;

describe('localDayRange', () => {
  it('gives an ordinary Berlin winter day 24 hours from 23:00 UTC', () => {
    const range = localDayRange('2026-03-10', 'Europe/Berlin');
    expect(range).toEqual({ from: new Date('2026-03-09T23:00:00Z'), until: new Date('2026-03-10T23:00:00Z') });
  });

  it('gives the Berlin day on which summer time begins 23 hours', () => {
    const range = localDayRange('2026-03-29', 'Europe/Berlin');
    expect(range).toEqual({ from: new Date('2026-03-28T23:00:00Z'), until: new Date('2026-03-29T22:00:00Z') });
    expect(hours(range)).toBe(23);
  });

  it('gives the Berlin day on which summer time ends 25 hours', () => {
    const range = localDayRange('2026-10-25', 'Europe/Berlin');
    expect(range).toEqual({ from: new Date('2026-10-24T22:00:00Z'), until: new Date('2026-10-25T23:00:00Z') });
    expect(hours(range)).toBe(25);
  });

  it('rolls over month and year ends', () => {
    expect(localDayRange('2026-12-31', 'Europe/Berlin').until).toEqual(new Date('2026-12-31T23:00:00Z'));
    expect(localDayRange('2028-02-28', 'UTC').until).toEqual(new Date('2028-02-29T00:00:00Z'));
  });

  it('starts a day whose midnight is skipped at the first instant that shows it (Havana, 00:00 -> 01:00)', () => {
    const range = localDayRange('2026-03-08', 'America/Havana');
    expect(range).toEqual({ from: new Date('2026-03-08T05:00:00Z'), until: new Date('2026-03-09T04:00:00Z') });
  });

  it('starts a day whose midnight happens twice at the first of them (Havana, 01:00 -> 00:00)', () => {
    const range = localDayRange('2026-11-01', 'America/Havana');
    expect(range).toEqual({ from: new Date('2026-11-01T04:00:00Z'), until: new Date('2026-11-02T05:00:00Z') });
    expect(hours(range)).toBe(25);
  });

  it('handles a change at the end of a day (Santiago, 24:00 -> 23:00)', () => {
    const range = localDayRange('2026-04-04', 'America/Santiago');
    expect(range).toEqual({ from: new Date('2026-04-04T03:00:00Z'), until: new Date('2026-04-05T04:00:00Z') });
  });

  it('handles offsets that are not whole hours and the extremes of the offset range', () => {
    expect(localDayRange('2026-06-01', 'Asia/Kolkata').from).toEqual(new Date('2026-05-31T18:30:00Z'));
    expect(localDayRange('2026-06-01', 'Pacific/Kiritimati').from).toEqual(new Date('2026-05-31T10:00:00Z'));
    expect(localDayRange('2026-06-01', 'Pacific/Pago_Pago').from).toEqual(new Date('2026-06-01T11:00:00Z'));
    expect(localDayRange('2026-06-01', 'UTC')).toEqual({
      from: new Date('2026-06-01T00:00:00Z'),
      until: new Date('2026-06-02T00:00:00Z'),
    });
  });

  it('refuses a day no calendar has', () => {
    expect(() => localDayRange('2026-02-30', 'UTC')).toThrow(RangeError);
  });

  it('covers exactly the instants whose local date is the day, in any zone and on any day', () => {
    const zones = [
      'Europe/Berlin',
      'America/Havana',
      'America/Santiago',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'America/St_Johns',
    ];
    const localDateIn = (zone: string) => {
      const format = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
      return (instant: number) => format.format(instant);
    };
    const dayAfter = (date: string) =>
      new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true }),
        (zone, someDay) => {
          const date = someDay.toISOString().slice(0, 10);
          const { from, until } = localDayRange(date, zone);
          const dateAt = localDateIn(zone);
          expect(dateAt(from.getTime())).toBe(date);
          expect(dateAt(from.getTime() - 1)).not.toBe(date);
          expect(dateAt(until.getTime() - 1)).toBe(date);
          expect(dateAt(until.getTime())).toBe(dayAfter(date));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('localDayOf', () => {
  it("answers the date an instant shows on the clocks of the zone, with that day's instants", () => {
    expect(localDayOf(new Date('2026-11-23T22:59:59.999Z'), 'Europe/Berlin')).toEqual({
      date: '2026-11-23',
      from: new Date('2026-11-22T23:00:00Z'),
      until: new Date('2026-11-23T23:00:00Z'),
    });
    expect(localDayOf(new Date('2026-11-23T23:00:00Z'), 'Europe/Berlin').date).toBe('2026-11-24');
    expect(localDayOf(new Date('2026-11-23T23:00:00Z'), 'UTC').date).toBe('2026-11-23');
    expect(localDayOf(new Date('2026-06-01T09:59:59Z'), 'Pacific/Kiritimati').date).toBe('2026-06-01');
  });

  it('puts the instants of a day before again, shown after the next day began, into the next day (Goose Bay, 00:01 -> 23:01)', () => {
    const nextDay = localDayRange('2010-11-07', 'America/Goose_Bay');
    expect(nextDay.from).toEqual(new Date('2010-11-07T03:00:00Z'));
    expect(localDayOf(new Date('2010-11-07T03:30:00Z'), 'America/Goose_Bay')).toEqual({
      date: '2010-11-07',
      ...nextDay,
    });
    expect(localDayOf(new Date('2010-11-07T02:59:59.999Z'), 'America/Goose_Bay').date).toBe('2010-11-06');
  });

  it('names a day past the year 9999 without throwing', () => {
    expect(localDayOf(new Date('+010000-01-01T11:00:00Z'), 'Europe/Berlin').date).toBe('+010000-01-01');
  });

  it('answers the day of localDayRange that holds the instant, in any zone and at any instant', () => {
    const zones = [
      'Europe/Berlin',
      'America/Havana',
      'America/Santiago',
      'America/Goose_Bay',
      'Asia/Kathmandu',
      'Pacific/Apia',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true }),
        (zone, instant) => {
          const day = localDayOf(instant, zone);
          expect(localDayRange(day.date, zone)).toEqual({ from: day.from, until: day.until });
          expect(day.from <= instant && instant < day.until).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
