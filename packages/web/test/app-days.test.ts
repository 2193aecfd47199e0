import { describe, expect, it } from 'vitest';
import { addDays, dayOf, isDay, mondayOf, stripDays, todayIn } from '../src/app/model/days.js';

// 2026-03-09 is a Monday; 2026-03-15 the Sunday of its week.
describe('addDays', () => {
  it('counts calendar days forward and back, across a month, a year and a leap day', () => {
    expect(addDays('2026-03-09', 0)).toBe('2026-03-09');
    expect(addDays('2026-03-09', 6)).toBe('2026-03-15');
    expect(addDays('2026-03-09', -9)).toBe('2026-02-28');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
  });

  it('knows no clocks: the nights the clocks change are days like any other', () => {
    expect(addDays('2026-03-28', 1)).toBe('2026-03-29');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
    expect(addDays('2026-10-25', -1)).toBe('2026-10-24');
  });
});

describe('mondayOf', () => {
  it("is the day itself on a Monday and the week's first day on any other", () => {
    expect(mondayOf('2026-03-09')).toBe('2026-03-09');
    expect(mondayOf('2026-03-11')).toBe('2026-03-09');
    expect(mondayOf('2026-03-15')).toBe('2026-03-09');
    expect(mondayOf('2026-03-16')).toBe('2026-03-16');
  });

  it('goes back across a month and a year end', () => {
    expect(mondayOf('2026-03-01')).toBe('2026-02-23');
    expect(mondayOf('2027-01-03')).toBe('2026-12-28');
  });
});

describe('stripDays', () => {
  it('on a Monday: today and the six days after it', () => {
    expect(stripDays('2026-03-09')).toEqual([
      '2026-03-09',
      '2026-03-10',
      '2026-03-11',
      '2026-03-12',
      '2026-03-13',
      '2026-03-14',
      '2026-03-15',
    ]);
  });

  it("on a Sunday: the week's six past days, today and the coming week, 13 days", () => {
    const days = stripDays('2026-03-15');
    expect(days).toHaveLength(13);
    expect(days[0]).toBe('2026-03-09');
    expect(days[6]).toBe('2026-03-15');
    expect(days[12]).toBe('2026-03-21');
  });

  it('runs on across a month end', () => {
    // A Saturday: Monday 23 February to Friday 6 March.
    expect(stripDays('2026-02-28')).toEqual([
      '2026-02-23',
      '2026-02-24',
      '2026-02-25',
      '2026-02-26',
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
    ]);
  });

  it('runs on across a year end, from a Monday of the old year', () => {
    // A Thursday.
    expect(stripDays('2026-12-31')).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
      '2027-01-04',
      '2027-01-05',
      '2027-01-06',
    ]);
  });

  it('holds each day once, in order, never more than 13', () => {
    for (let day = '2026-12-20'; day <= '2027-01-10'; day = addDays(day, 1)) {
      const days = stripDays(day);
      expect(days.length).toBeLessThanOrEqual(13);
      expect(days.length).toBeGreaterThanOrEqual(7);
      expect(days).toContain(day);
      expect(days.at(-1)).toBe(addDays(day, 6));
      expect([...days].sort()).toEqual(days);
      expect(new Set(days).size).toBe(days.length);
    }
  });
});

describe('dayOf', () => {
  it("is the instant's day on the zone's clocks, across midnight either way", () => {
    // 23:30 UTC: already the next day in Berlin (UTC+1 in winter), still the same day in New York.
    expect(dayOf('2026-03-09T23:30:00Z', 'Europe/Berlin')).toBe('2026-03-10');
    expect(dayOf('2026-03-09T23:30:00Z', 'UTC')).toBe('2026-03-09');
    expect(dayOf('2026-03-09T23:30:00Z', 'America/New_York')).toBe('2026-03-09');
    // 03:30 UTC: the evening before in Los Angeles.
    expect(dayOf('2026-03-10T03:30:00Z', 'America/Los_Angeles')).toBe('2026-03-09');
    expect(dayOf('2026-03-10T03:30:00Z', 'Europe/Berlin')).toBe('2026-03-10');
  });

  it('follows summer time and the year end', () => {
    // 22:30 UTC is 00:30 in Berlin in summer (UTC+2), 23:30 in winter (UTC+1).
    expect(dayOf('2026-06-30T22:30:00Z', 'Europe/Berlin')).toBe('2026-07-01');
    expect(dayOf('2026-01-30T22:30:00Z', 'Europe/Berlin')).toBe('2026-01-30');
    expect(dayOf('2026-12-31T23:15:00Z', 'Europe/Berlin')).toBe('2027-01-01');
    expect(dayOf('2026-12-31T14:59:59Z', 'Asia/Tokyo')).toBe('2026-12-31');
    expect(dayOf('2026-12-31T15:00:00Z', 'Asia/Tokyo')).toBe('2027-01-01');
  });

  it("takes the browser's own day for a zone it does not know, not an error", () => {
    const instant = '2026-03-09T23:30:00Z';
    expect(dayOf(instant, 'Nowhere/Atlantis')).toBe(todayIn(undefined, new Date(instant)));
  });
});

describe('isDay', () => {
  it('takes a YYYY-MM-DD day, leap days included', () => {
    expect(isDay('2026-03-09')).toBe(true);
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2026-12-31')).toBe(true);
  });

  it('refuses no text, other shapes, and months or days out of range', () => {
    const refused = [
      null,
      undefined,
      '',
      '2026-3-9',
      '20260309',
      '2026-03-09T12:00',
      ' 2026-03-09',
      '2026-03-09 ',
      'today',
    ];
    for (const text of [...refused, '2026-13-01', '2026-00-10', '2026-02-32'])
      expect(isDay(text), String(text)).toBe(false);
  });

  it('refuses a day its month does not have (Date would roll it over into the next month)', () => {
    for (const text of ['2026-02-30', '2026-02-31', '2026-04-31', '2026-02-29']) expect(isDay(text), text).toBe(false);
  });
});
