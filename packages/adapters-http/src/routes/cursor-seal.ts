import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * What every cursor of this service is: the base64url of a payload followed by an HMAC-SHA256 (truncated to 128 bits)
 * over the cursor's scope and the payload. A cursor sealed for one scope (a user, an endpoint's log) opens for no
 * other. Every instance that shares `secret` opens the others' cursors; without one, a random key of this process
 * stands in (a single instance: its cursors end with it, and a client starts again).
 */
export interface CursorSeal {
  seal(scope: string, payload: string): string;
  /**
   * The payload of a cursor this seal made for `scope`, or null for anything else: made up, altered, sealed for
   * another scope, or another spelling of the same bytes (base64url has several; only the one handed out opens).
   */
  open(scope: string, cursor: string): string | null;
}

const macBytes = 16;

export function createCursorSeal(secret?: string): CursorSeal {
  const key = secret === undefined || secret === '' ? randomBytes(32) : Buffer.from(secret, 'utf8');
  const macOf = (scope: string, payload: Buffer) =>
    createHmac('sha256', key).update(scope).update('\n').update(payload).digest().subarray(0, macBytes);
  return {
    seal(scope, payload) {
      const bytes = Buffer.from(payload);
      return Buffer.concat([bytes, macOf(scope, bytes)]).toString('base64url');
    },
    open(scope, cursor) {
      const bytes = Buffer.from(cursor, 'base64url');
      if (bytes.length <= macBytes || bytes.toString('base64url') !== cursor) return null;
      const payload = bytes.subarray(0, bytes.length - macBytes);
      return timingSafeEqual(bytes.subarray(payload.length), macOf(scope, payload)) ? payload.toString('utf8') : null;
    },
  };
}
