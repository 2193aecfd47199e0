import { isLocalDate, isMealId, type LocalDate, type MealId, type MenuDays } from '@canteen-meals/domain';
import { HttpError } from '../http-error.js';

/** A meal id of a path or query: digits only, in range; anything else is a bad request. */
export function mealIdOf(text: string): MealId {
  const id = Number(text);
  if (!/^\d+$/.test(text) || !isMealId(id)) {
    throw new HttpError('invalid_request', `"${text}" is not a meal id (a positive integer up to 2^53 - 1).`);
  }
  return id;
}

/** A calendar day of a query; one that does not exist (2026-02-30) is a bad request. */
export function localDateOf(text: string): LocalDate {
  if (!isLocalDate(text)) throw new HttpError('invalid_request', `"${text}" is not a calendar day (YYYY-MM-DD).`);
  return text;
}

/**
 * The days of one canteen's menu that a query names (`canteen` with `date`, or with `from` and `to`); undefined
 * without `canteen`, or with `ids` (the reads by ids and of every canteen's day). Any other mix is a bad request.
 */
export function menuDaysOf(query: {
  readonly canteen?: string | undefined;
  readonly date?: string | undefined;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly ids?: string | undefined;
}): MenuDays | undefined {
  const { date, canteen, from, to } = query;
  if (canteen === undefined || query.ids !== undefined) return undefined;
  // Checked without an array: this runs on every menu read, the cheapest 304 included.
  if ((date === undefined) === (from === undefined && to === undefined)) {
    throw new HttpError('invalid_request', 'Give exactly one of: date, or from with to.');
  }
  if (date !== undefined) {
    const day = localDateOf(date);
    return { canteenId: canteen, from: day, to: day };
  }
  if (from === undefined || to === undefined) throw new HttpError('invalid_request', 'A range needs both from and to.');
  return { canteenId: canteen, from: localDateOf(from), to: localDateOf(to) };
}
