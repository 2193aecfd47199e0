/** A calendar day as a menu names it, "YYYY-MM-DD", without a time zone. */
export type LocalDate = string;
/** A wall-clock time of day, "HH:MM" (24 hours). */
export type LocalTime = string;

/** True for a real calendar day: "2024-02-29" is one, "2025-02-29" and "2025-13-01" are not. */
export function isLocalDate(value: string): value is LocalDate {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  // Worked out without a Date: every menu read checks its days, the cheapest 304 included.
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export function isLocalTime(value: string): value is LocalTime {
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(value);
}

/** True when the runtime knows the IANA time zone, e.g. "Europe/Berlin". */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return value.trim() !== '';
  } catch {
    return false;
  }
}

const hourMs = 60 * 60 * 1000;
const dayMs = 24 * hourMs;

/**
 * The instant at which the wall clocks of `timeZone` show `time` on `date`. Offsets come from Intl, so daylight
 * saving is right on every day. A time that happens twice (clocks go back) is its first occurrence; a time that
 * never happens (clocks go forward) is read with the offset before the jump, landing as far after it as it lies
 * after the jump's start: as Temporal's "compatible" disambiguation.
 */
export function instantOfLocalTime(date: LocalDate, time: LocalTime, timeZone: string): Date {
  if (!isLocalDate(date)) throw new RangeError(`not a calendar day: "${date}"`);
  if (!isLocalTime(time)) throw new RangeError(`not a time of day: "${time}"`);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const wallClock = utcMs(year, month, day, hour, minute);
  const offsetBefore = utcOffsetMs(wallClock - dayMs, timeZone);
  const offsetAfter = utcOffsetMs(wallClock + dayMs, timeZone);
  const matching = [offsetBefore, offsetAfter]
    .map((offset) => wallClock - offset)
    .filter((instant) => instant + utcOffsetMs(instant, timeZone) === wallClock)
    .sort((a, b) => a - b);
  return new Date(matching[0] ?? wallClock - offsetBefore);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's wall clock is ahead of UTC at `instant`, in milliseconds (+3 600 000 for CET). */
export function utcOffsetMs(instant: number, timeZone: string): number {
  let format = formatters.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const parts = format.formatToParts(instant);
  const value = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wallClock = utcMs(value('year'), value('month'), value('day'), value('hour'), value('minute'), value('second'));
  return wallClock - (instant - (((instant % 1000) + 1000) % 1000));
}

/** Date.UTC without its quirk of reading the years 0 to 99 as 1900 to 1999. */
function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

/** How many days `to` lies after `from` (negative when before): 0 for the same day. */
export function daysFrom(from: LocalDate, to: LocalDate): number {
  const dayNumber = (date: LocalDate) => {
    if (!isLocalDate(date)) throw new RangeError(`not a calendar day: "${date}"`);
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    return Math.round(utcMs(year, month, day) / 86_400_000);
  };
  return dayNumber(to) - dayNumber(from);
}

/** The calendar day `days` after `date` (before it when negative). */
export function addDays(date: LocalDate, days: number): LocalDate {
  if (!isLocalDate(date)) throw new RangeError(`not a calendar day: "${date}"`);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const shifted = new Date(0);
  shifted.setUTCFullYear(year, month - 1, day + days);
  return shifted.toISOString().slice(0, 10);
}
