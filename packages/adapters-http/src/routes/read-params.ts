import { isLocalDate, isMealId, type LocalDate, type MealId } from '@canteen-meals/domain';
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
