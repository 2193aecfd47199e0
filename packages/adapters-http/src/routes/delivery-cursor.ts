import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DeliveryPosition } from '@canteen-meals/domain';
import { HttpError } from '../http-error.js';

/** Cursors of a webhook's delivery log: where a page ended (a delivery's creation instant and event id). */
export interface DeliveryCursors {
  encode(webhookId: string, position: DeliveryPosition): string;
  /** The position a cursor names, or HttpError('invalid_cursor') for anything this service did not hand out. */
  decode(webhookId: string, cursor: string): DeliveryPosition;
}

const format = /^(-?\d{1,16}):([A-Za-z0-9_-]{1,64})$/;
const maxInstantMs = 8.64e15;
const macBytes = 16;

/**
 * Opaque and tamper-evident like the page cursors of the meal lists (page-cursor.ts), whose positions are meals: the
 * base64url of the position and an HMAC-SHA256 (128 bits) over it, the log's name and the webhook id, so that a cursor
 * of one endpoint's log pages no other. The same secret makes every instance accept the others' cursors.
 */
export function createDeliveryCursors(secret?: string): DeliveryCursors {
  const key = secret === undefined || secret === '' ? randomBytes(32) : Buffer.from(secret, 'utf8');
  const macOf = (webhookId: string, payload: Buffer) =>
    createHmac('sha256', key).update('deliveries\n').update(webhookId).update('\n').update(payload).digest().subarray(0, macBytes);
  const encode = (webhookId: string, { createdAt, eventId }: DeliveryPosition) => {
    const payload = Buffer.from(`${createdAt.getTime()}:${eventId}`);
    return Buffer.concat([payload, macOf(webhookId, payload)]).toString('base64url');
  };
  return {
    encode,
    decode(webhookId, cursor) {
      const bytes = Buffer.from(cursor, 'base64url');
      const payload = bytes.subarray(0, Math.max(0, bytes.length - macBytes));
      const authentic = bytes.length > macBytes && timingSafeEqual(bytes.subarray(payload.length), macOf(webhookId, payload));
      const match = authentic ? format.exec(payload.toString('utf8')) : null;
      const createdAtMs = Number(match?.[1]);
      const position = { createdAt: new Date(createdAtMs), eventId: match?.[2] ?? '' };
      // base64url has several spellings of the same bytes: only the one handed out is accepted.
      if (match === null || Math.abs(createdAtMs) > maxInstantMs || encode(webhookId, position) !== cursor) {
        throw new HttpError('invalid_cursor', 'The cursor is not one this list handed out.');
      }
      return position;
    },
  };
}
