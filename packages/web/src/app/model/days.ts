// The day strip's days and the calendar words around them: pure, on the canteen's clocks (a menu's day is its day).
import { todayIn } from '../../shared/dates.js';
import { dateFormat } from '../../shared/formatters.js';

export { todayIn };

/** `YYYY-MM-DD` plus `days` (negative: back), on the calendar alone (no clock, no zone). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Monday of the day's week. */
export function mondayOf(day: string): string {
  const weekday = (new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/**
 * The strip: this week's past days (their meals may still be rated, up to a week after serving), today, and the six
 * days after it (the coming week, whatever today's weekday): at most 13 days, one menu read (at most 14).
 */
export function stripDays(today: string): readonly string[] {
  const first = mondayOf(today);
  const last = addDays(today, 6);
  const days: string[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The day of an instant on a zone's clocks (a meal's `served_at` → its menu day). */
export function dayOf(instant: string, timeZone: string): string {
  return todayIn(timeZone, new Date(instant));
}

/** A day as the strip writes it: weekday and day of month (`Mon 9`, `Mo. 9.`). */
export function dayLabel(
  day: string,
  language: string,
): { readonly weekday: string; readonly date: string; readonly full: string } {
  const date = new Date(`${day}T12:00:00Z`);
  const format = (options: Intl.DateTimeFormatOptions) =>
    dateFormat(language, { timeZone: 'UTC', ...options }).format(date);
  return {
    weekday: format({ weekday: 'short' }),
    date: format({ day: 'numeric', month: 'numeric' }),
    full: format({ weekday: 'long', day: 'numeric', month: 'long' }),
  };
}

/** A clock time on the 24-hour clock (`11:42`, as a canteen's opening hours are written), on the browser's clocks. */
export function clockTime(instant: Date, language: string): string {
  return dateFormat(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant);
}

/** A calendar day `YYYY-MM-DD` that exists (not 2026-02-30, which Date would roll over into March). */
export const isDay = (text: string | null | undefined): text is string =>
  typeof text === 'string' &&
  /^\d{4}-\d{2}-\d{2}$/.test(text) &&
  !Number.isNaN(Date.parse(`${text}T12:00:00Z`)) &&
  addDays(text, 0) === text;
