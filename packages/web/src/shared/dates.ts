import { dateFormat } from './formatters.js';

/** Today on the canteen's clocks (a menu's date is the canteen's day); the browser's own day for an unknown zone. */
export function todayIn(timeZone: string | undefined, now: Date = new Date()): string {
  const format = (zone: string | undefined) =>
    dateFormat('en-CA', {
      ...(zone === undefined ? {} : { timeZone: zone }),
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
  try {
    return format(timeZone);
  } catch {
    return format(undefined);
  }
}

export const isDay = (text: string | null): text is string => text !== null && /^\d{4}-\d{2}-\d{2}$/.test(text);
