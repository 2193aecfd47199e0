import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isMealId, type ServedPosition } from '@canteen-meals/domain';
import { HttpError } from '../http-error.js';

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

const format = /^(marked|rated|search|dish-[1-9]\d{0,15}|day-\d{4}-\d{2}-\d{2}):(-?\d{1,16}):(\d{1,16})(?::(-?\d{1,16}))?$/;
const maxInstantMs = 8.64e15;
const macBytes = 16;

/**
 * Cursors are opaque and tamper-evident: base64url of the list and the position where the page ended, followed by an
 * HMAC-SHA256 (truncated to 128 bits) over them and the caller's user id. A made-up, altered, other list's or other
 * user's cursor fails the check. Every instance that shares `secret` accepts the others' cursors; without one, a
 * random key of this process stands in (a single instance: its cursors end with it, and a client starts again).
 */
export function createPageCursors(secret?: string): PageCursors {
  const key = secret === undefined || secret === '' ? randomBytes(32) : Buffer.from(secret, 'utf8');
  const macOf = (userId: string, payload: Buffer) =>
    createHmac('sha256', key).update(userId).update('\n').update(payload).digest().subarray(0, macBytes);
  const encode = (list: CursorList, userId: string, position: CursorPosition) => {
    const place = position.position === undefined ? '' : `:${position.position}`;
    const payload = Buffer.from(`${list}:${position.servedAt.getTime()}:${position.mealId}${place}`);
    return Buffer.concat([payload, macOf(userId, payload)]).toString('base64url');
  };
  return {
    encode,
    decode(list, userId, cursor) {
      const bytes = Buffer.from(cursor, 'base64url');
      const payload = bytes.subarray(0, Math.max(0, bytes.length - macBytes));
      const authentic = bytes.length > macBytes && timingSafeEqual(bytes.subarray(payload.length), macOf(userId, payload));
      const match = authentic ? format.exec(payload.toString('utf8')) : null;
      const servedAt = Number(match?.[2]);
      const mealId = Number(match?.[3]);
      const place = match?.[4] === undefined ? {} : { position: Number(match[4]) };
      const position: CursorPosition = { servedAt: new Date(servedAt), mealId, ...place };
      if (
        match === null ||
        match[1] !== list ||
        Math.abs(servedAt) > maxInstantMs ||
        !isMealId(mealId) ||
        // base64url has several spellings of the same bytes: only the one handed out is accepted.
        encode(list, userId, position) !== cursor
      ) {
        throw new HttpError('invalid_cursor', 'The cursor is not one this list handed out.');
      }
      return position;
    },
  };
}
