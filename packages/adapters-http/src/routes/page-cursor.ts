import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isMealId, type ServedPosition } from '@canteen-meals/domain';
import { HttpError } from '../http-error.js';

/**
 * Which list a cursor belongs to: a cursor of one list is refused by every other (the servings of each dish are a
 * list of their own).
 */
export type CursorList = 'marked' | 'rated' | 'search' | `dish-${number}`;

export interface PageCursors {
  encode(list: CursorList, userId: string, position: ServedPosition): string;
  /** The position a cursor names, or HttpError('invalid_cursor') for anything this service did not hand out. */
  decode(list: CursorList, userId: string, cursor: string): ServedPosition;
}

const format = /^(marked|rated|search|dish-[1-9]\d{0,15}):(-?\d{1,16}):(\d{1,16})$/;
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
  const encode = (list: CursorList, userId: string, position: ServedPosition) => {
    const payload = Buffer.from(`${list}:${position.servedAt.getTime()}:${position.mealId}`);
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
      const position = { servedAt: new Date(servedAt), mealId };
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
