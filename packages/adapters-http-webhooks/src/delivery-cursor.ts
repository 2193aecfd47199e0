import type { DeliveryPosition } from '@canteen-meals/domain';
import { createCursorSeal, HttpError } from '@canteen-meals/adapters-http/plugin-kit';

/** Cursors of a webhook's delivery log: where a page ended (a delivery's creation instant and event id). */
export interface DeliveryCursors {
  encode(webhookId: string, position: DeliveryPosition): string;
  /** The position a cursor names, or HttpError('invalid_cursor') for anything this service did not hand out. */
  decode(webhookId: string, cursor: string): DeliveryPosition;
}

const format = /^(-?\d{1,16}):([A-Za-z0-9_-]{1,64})$/;
const maxInstantMs = 8.64e15;

/**
 * Opaque and tamper-evident like the page cursors of the meal lists (cursor-seal.ts): the position sealed for the log
 * and the webhook id, so that a cursor of one endpoint's log pages no other.
 */
export function createDeliveryCursors(secret?: string): DeliveryCursors {
  const cursorSeal = createCursorSeal(secret);
  const scopeOf = (webhookId: string) => `deliveries\n${webhookId}`;
  return {
    encode: (webhookId, { createdAt, eventId }) =>
      cursorSeal.seal(scopeOf(webhookId), `${createdAt.getTime()}:${eventId}`),
    decode(webhookId, cursor) {
      const payload = cursorSeal.open(scopeOf(webhookId), cursor);
      const match = payload === null ? null : format.exec(payload);
      const createdAtMs = Number(match?.[1]);
      if (match === null || Math.abs(createdAtMs) > maxInstantMs) {
        throw new HttpError('invalid_cursor', 'The cursor is not one this list handed out.');
      }
      return { createdAt: new Date(createdAtMs), eventId: match[2]! };
    },
  };
}
