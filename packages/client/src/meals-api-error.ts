import { errorCodes } from '@canteen-meals/http-contract';
import type { MealsErrorCode } from './wire-types.js';

// The contract's own list: the client runs no server code, only the wire contract.
const knownCodes: ReadonlySet<string> = new Set(errorCodes);

/**
 * Where an error came from:
 * - `envelope`: the service answered `{ status: "error", error: { code, message } }`;
 * - `unexpected_response`: something answered that is not the service's envelope (a proxy's HTML 502, an empty body);
 * - `network`: no answer at all (connection refused, DNS, an aborted request); `status` is then 0.
 */
export type MealsApiErrorSource = 'envelope' | 'unexpected_response' | 'network';

/** The one error the client throws. Branch on `code`; `message` is for people. */
export class MealsApiError extends Error {
  override readonly name = 'MealsApiError';

  constructor(
    /** The HTTP status, or 0 when no response arrived. */
    readonly status: number,
    /** The envelope's code; `internal_error` when the answer was not an envelope or never came. */
    readonly code: MealsErrorCode,
    message: string,
    readonly source: MealsApiErrorSource,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isMealsErrorCode(value: unknown): value is MealsErrorCode {
  return typeof value === 'string' && knownCodes.has(value);
}
