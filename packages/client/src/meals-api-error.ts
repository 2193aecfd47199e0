import type { MealsErrorCode } from './wire-types.js';

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

// A copy of the server's codes that the compiler keeps equal to the type: the client imports no server code at run time.
const knownCodes = {
  invalid_request: true,
  invalid_json: true,
  invalid_url: true,
  invalid_cursor: true,
  unauthenticated: true,
  invalid_token: true,
  forbidden: true,
  meal_not_found: true,
  not_found: true,
  request_timeout: true,
  payload_too_large: true,
  unsupported_media_type: true,
  headers_too_large: true,
  rate_limited: true,
  meal_not_rateable: true,
  meal_not_yet_served: true,
  rating_period_over: true,
  internal_error: true,
  service_unavailable: true,
  storage_unavailable: true,
  not_ready: true,
} as const satisfies Record<MealsErrorCode, true>;

export function isMealsErrorCode(value: unknown): value is MealsErrorCode {
  return typeof value === 'string' && Object.hasOwn(knownCodes, value);
}
