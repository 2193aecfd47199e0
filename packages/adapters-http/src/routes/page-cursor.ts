import { isMealId, type ServedPosition } from '@canteen-meals/domain';
import { HttpError } from '../http-error.js';
import { createCursorSeal } from './cursor-seal.js';

/**
 * Which list a cursor belongs to: a cursor of one list is refused by every other (the servings of each dish are a
 * list of their own).
 */
export type CursorList = 'marked' | 'rated' | 'search' | `dish-${number}` | `day-${string}`;

/** Where a page ended: a served position, with the meal's place in its day's menu for the lists in menu order. */
export type CursorPosition = ServedPosition & { readonly position?: number };

export interface PageCursors {
  encode(list: CursorList, userId: string, position: CursorPosition): string;
  /** The position a cursor names, or HttpError('invalid_cursor') for anything this service did not hand out. */
  decode(list: CursorList, userId: string, cursor: string): CursorPosition;
}

const format =
  /^(marked|rated|search|dish-[1-9]\d{0,15}|day-\d{4}-\d{2}-\d{2}):(-?\d{1,16}):(\d{1,16})(?::(-?\d{1,16}))?$/;
const maxInstantMs = 8.64e15;

/**
 * Cursors are opaque and tamper-evident (cursor-seal.ts): the list and the position where the page ended, sealed for
 * the caller's user id. A made-up, altered, other list's or other user's cursor is refused.
 */
export function createPageCursors(secret?: string): PageCursors {
  const cursorSeal = createCursorSeal(secret);
  return {
    encode(list, userId, position) {
      const place = position.position === undefined ? '' : `:${position.position}`;
      return cursorSeal.seal(userId, `${list}:${position.servedAt.getTime()}:${position.mealId}${place}`);
    },
    decode(list, userId, cursor) {
      const payload = cursorSeal.open(userId, cursor);
      const match = payload === null ? null : format.exec(payload);
      const servedAt = Number(match?.[2]);
      const mealId = Number(match?.[3]);
      const place = match?.[4] === undefined ? {} : { position: Number(match[4]) };
      const position: CursorPosition = { servedAt: new Date(servedAt), mealId, ...place };
      if (match === null || match[1] !== list || Math.abs(servedAt) > maxInstantMs || !isMealId(mealId)) {
        throw new HttpError('invalid_cursor', 'The cursor is not one this list handed out.');
      }
      return position;
    },
  };
}
