import { isStorableText } from './storable-text.js';

/** The authenticated subject; the domain never sees where it came from. */
export type UserId = string;

export const userIdMaxLength = 255;

/** 1 to 255 UTF-16 code units that every adapter can store as text. */
export function isUserId(value: unknown): value is UserId {
  return typeof value === 'string' && value.length > 0 && value.length <= userIdMaxLength && isStorableText(value);
}
