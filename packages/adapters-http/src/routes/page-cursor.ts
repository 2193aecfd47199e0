import { isMealId, type ServedPosition } from '@meals/domain';
import { HttpError } from '../http-error.js';

/** Which list a cursor belongs to: a cursor of one list is refused by the other. */
export type CursorList = 'marked' | 'rated';

const format = /^(marked|rated):(-?\d{1,16}):(\d{1,16})$/;
const maxInstantMs = 8.64e15;

/** Opaque to clients: base64url of the list and the position where the page ended. */
export function encodeCursor(list: CursorList, position: ServedPosition): string {
  return Buffer.from(`${list}:${position.servedAt.getTime()}:${position.mealId}`).toString('base64url');
}

/** The position a cursor names, or HttpError('invalid_request') for anything this service did not hand out. */
export function decodeCursor(list: CursorList, cursor: string): ServedPosition {
  const match = format.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const servedAt = Number(match?.[2]);
  const mealId = Number(match?.[3]);
  const position = { servedAt: new Date(servedAt), mealId };
  if (
    match === null ||
    match[1] !== list ||
    Math.abs(servedAt) > maxInstantMs ||
    !isMealId(mealId) ||
    encodeCursor(list, position) !== cursor
  ) {
    throw new HttpError('invalid_request', `The cursor is not one this list handed out.`);
  }
  return position;
}
