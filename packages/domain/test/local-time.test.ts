import { instantOfLocalTime, isLocalDate, isLocalTime, isTimeZone, utcOffsetMs } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';

const berlin = 'Europe/Berlin';
const at = (date: string, time: string, zone = berlin) => instantOfLocalTime(date, time, zone).toISOString();

describe('instantOfLocalTime: a menu day at the start of service, on the canteen clocks', () => {
  it.each([
    // Last Sunday of March: clocks go from 02:00 CET to 03:00 CEST.
    ['2025-03-29', '11:00', '2025-03-29T10:00:00.000Z'],
    ['2025-03-30', '11:00', '2025-03-30T09:00:00.000Z'],
    ['2025-03-31', '11:00', '2025-03-31T09:00:00.000Z'],
    // Last Sunday of October: clocks go from 03:00 CEST back to 02:00 CET.
    ['2025-10-25', '11:00', '2025-10-25T09:00:00.000Z'],
    ['2025-10-26', '11:00', '2025-10-26T10:00:00.000Z'],
    ['2025-10-27', '11:00', '2025-10-27T10:00:00.000Z'],
    ['2026-03-29', '11:00', '2026-03-29T09:00:00.000Z'],
    ['2026-10-25', '11:00', '2026-10-25T10:00:00.000Z'],
    ['2026-03-28', '11:30', '2026-03-28T10:30:00.000Z'],
    ['2024-02-29', '00:00', '2024-02-28T23:00:00.000Z'],
    ['2025-12-31', '23:59', '2025-12-31T22:59:00.000Z'],
  ])('%s at %s in Berlin is %s', (date, time, expected) => {
    expect(at(date, time)).toBe(expected);
  });

  it('is the same wall-clock time before and after each change, an hour apart in UTC', () => {
    const march = new Date(at('2025-03-30', '11:00')).getTime() - new Date(at('2025-03-29', '11:00')).getTime();
    const october = new Date(at('2025-10-26', '11:00')).getTime() - new Date(at('2025-10-25', '11:00')).getTime();
    expect(march).toBe(23 * 60 * 60 * 1000);
    expect(october).toBe(25 * 60 * 60 * 1000);
  });

  it('reads a time skipped by the spring change with the offset before it (02:30 becomes 03:30 CEST)', () => {
    expect(at('2025-03-30', '02:30')).toBe('2025-03-30T01:30:00.000Z');
  });

  it('takes the first of the two 02:30 of the autumn change (still CEST)', () => {
    expect(at('2025-10-26', '02:30')).toBe('2025-10-26T00:30:00.000Z');
  });

  it('works in any IANA zone, southern hemisphere and UTC included', () => {
    expect(at('2025-04-06', '11:00', 'Australia/Sydney')).toBe('2025-04-06T01:00:00.000Z'); // AEST, after the change
    expect(at('2025-04-05', '11:00', 'Australia/Sydney')).toBe('2025-04-05T00:00:00.000Z'); // AEDT
    expect(at('2025-03-30', '11:00', 'UTC')).toBe('2025-03-30T11:00:00.000Z');
    expect(at('2025-07-01', '12:00', 'America/New_York')).toBe('2025-07-01T16:00:00.000Z');
  });

  it('refuses a day or a time that does not exist', () => {
    expect(() => instantOfLocalTime('2025-02-29', '11:00', berlin)).toThrow(RangeError);
    expect(() => instantOfLocalTime('2025-03-30', '24:00', berlin)).toThrow(RangeError);
  });

  it('knows the offset of Berlin in winter and in summer', () => {
    expect(utcOffsetMs(Date.parse('2025-01-15T12:00:00Z'), berlin)).toBe(60 * 60 * 1000);
    expect(utcOffsetMs(Date.parse('2025-07-15T12:00:00.999Z'), berlin)).toBe(2 * 60 * 60 * 1000);
  });
});

describe('local dates, times and zones', () => {
  it.each(['2024-02-29', '2025-12-31', '2025-01-01', '2000-02-29'])('%s is a calendar day', (date) => {
    expect(isLocalDate(date)).toBe(true);
  });

  it.each([
    '2025-02-29',
    '1900-02-29',
    '2025-13-01',
    '2025-00-10',
    '2025-04-31',
    '2025-4-1',
    '20250401',
    '',
  ])('%s is not a calendar day', (date) => expect(isLocalDate(date)).toBe(false));

  it('knows the length of every month as the calendar does, from 1899 to 2401 (leap years by the Gregorian rule)', () => {
    const wrong: string[] = [];
    for (let year = 1899; year <= 2401; year += 1) {
      for (let month = 1; month <= 12; month += 1) {
        const length = new Date(Date.UTC(year, month, 0)).getUTCDate();
        const day = (d: number) => `${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        if (!isLocalDate(day(length)) || isLocalDate(day(length + 1))) wrong.push(day(length));
      }
    }
    expect(wrong).toEqual([]);
  });

  it('reads times of day as HH:MM from 00:00 to 23:59', () => {
    expect(['00:00', '11:00', '23:59'].every(isLocalTime)).toBe(true);
    expect(['24:00', '11:60', '1:00', '11:00:00', 'noon'].some(isLocalTime)).toBe(false);
  });

  it('knows IANA zones and refuses others', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
