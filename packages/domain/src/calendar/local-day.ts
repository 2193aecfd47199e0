import { isLocalDate, utcOffsetMs, type LocalDate } from '../menu/local-time.js';

/** The instants of one local calendar day: `from` inclusive, `until` exclusive. */
export interface InstantRange {
  readonly from: Date;
  readonly until: Date;
}

/**
 * The instants at which the wall clocks of `timeZone` (an IANA name such as `Europe/Berlin`) show `date`.
 * A day is 23 or 25 hours long when daylight saving time begins or ends in it; where a change skips or repeats
 * midnight itself, the day starts at the first instant that shows the date.
 */
export function localDayRange(date: LocalDate, timeZone: string): InstantRange {
  const key = `${timeZone} ${date}`;
  let known = knownDays.get(key);
  if (known === undefined) {
    const range = computeLocalDayRange(date, timeZone);
    // Menu reads ask for the same few days again and again, and Intl's offsets cost microseconds each: the instants are
    // remembered (as numbers: each caller gets Dates of its own). A full memo starts over.
    if (knownDays.size >= maxKnownDays) knownDays.clear();
    known = [range.from.getTime(), range.until.getTime()];
    knownDays.set(key, known);
  }
  return { from: new Date(known[0]), until: new Date(known[1]) };
}

const knownDays = new Map<string, readonly [number, number]>();
const maxKnownDays = 4096;

function computeLocalDayRange(date: LocalDate, timeZone: string): InstantRange {
  if (!isLocalDate(date)) throw new RangeError(`not a calendar day: "${date}"`);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return rangeOfDay(utcMsOf(year, month, day), wallClockOf(timeZone));
}

/** A local calendar day: its date and its instants. */
export interface LocalDay extends InstantRange {
  readonly date: LocalDate;
}

/**
 * The local calendar day of `timeZone` whose instants (as localDayRange gives them) hold `instant`: the date its wall
 * clock shows, except where the clocks went back across midnight and showed the day before once more (Goose Bay,
 * 00:01 to 23:01, until 2010): those instants came after the next day had begun, so they belong to it.
 */
export function localDayOf(instant: Date, timeZone: string): LocalDay {
  const wallClock = wallClockOf(timeZone);
  const midnight = Math.floor(wallClock(instant.getTime()) / dayMs) * dayMs;
  const range = rangeOfDay(midnight, wallClock);
  if (instant < range.until) return { date: dateOf(midnight), ...range };
  return { date: dateOf(midnight + dayMs), ...rangeOfDay(midnight + dayMs, wallClock) };
}

const hourMs = 60 * 60 * 1000;
const dayMs = 24 * hourMs;

/** The instants of the day whose midnight, read as if it were UTC, is `midnight`. */
function rangeOfDay(midnight: number, wallClock: WallClock): InstantRange {
  return { from: startOfLocalDay(midnight, wallClock), until: startOfLocalDay(midnight + dayMs, wallClock) };
}

/** The date of a UTC midnight, "YYYY-MM-DD" (a year past 9999 has a sign and six digits, as ISO 8601 extends it). */
function dateOf(midnight: number): LocalDate {
  const iso = new Date(midnight).toISOString();
  return iso.slice(0, iso.indexOf('T'));
}

/** Wall clock time of an instant in one zone, as milliseconds of a UTC date with the same fields. */
type WallClock = (instant: number) => number;

/** The first instant of the day whose midnight, read as if it were UTC, is `midnight`. */
function startOfLocalDay(midnight: number, wallClock: WallClock): Date {
  // The usual case: the offset near midnight, corrected once, turns the wall time into the one instant showing it.
  const estimate = midnight - (wallClock(midnight) - midnight);
  const instant = midnight - (wallClock(estimate) - estimate);
  if (wallClock(instant) === midnight && wallClock(instant - 1) < midnight) return new Date(instant);
  return new Date(firstInstantOnOrAfter(midnight, wallClock));
}

/**
 * The first instant whose local date is on or after the day that starts at wall time `midnight`: offsets lie
 * within ±18 hours, so the answer lies in a window of 36 hours around it, and dates only move forward in it.
 */
function firstInstantOnOrAfter(midnight: number, wallClock: WallClock): number {
  let low = midnight - 18 * hourMs; // the local date here is before the day
  let high = midnight + 18 * hourMs; // and here on or after it
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (wallClock(middle) >= midnight) high = middle;
    else low = middle;
  }
  return high;
}

/** Date.UTC without its quirk of reading the years 0 to 99 as 1900 to 1999; a day past the month's end rolls over. */
function utcMsOf(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

function wallClockOf(timeZone: string): WallClock {
  return (instant) => instant + utcOffsetMs(instant, timeZone);
}
