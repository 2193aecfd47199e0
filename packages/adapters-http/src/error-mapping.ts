import type { DomainErrorCode } from '@canteen-meals/domain';

/** Every error code a client can receive, with its HTTP status: the one table of the contract. */
export const httpStatusOf = {
  invalid_request: 400,
  invalid_json: 400,
  invalid_url: 400,
  invalid_cursor: 400,
  unauthenticated: 401,
  invalid_token: 401,
  forbidden: 403,
  meal_not_found: 404,
  not_found: 404,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  rate_limited: 429,
  meal_not_rateable: 422,
  meal_not_yet_served: 422,
  rating_period_over: 422,
  internal_error: 500,
  service_unavailable: 503,
  storage_unavailable: 503,
  not_ready: 503,
} as const;

export type ErrorCode = keyof typeof httpStatusOf;

export const errorCodes = Object.keys(httpStatusOf) as readonly ErrorCode[];

/** A new domain code without a wire code is a compile error here. */
export const errorCodeOfDomain = {
  meal_not_found: 'meal_not_found',
  meal_not_rateable: 'meal_not_rateable',
  meal_not_yet_served: 'meal_not_yet_served',
  rating_period_over: 'rating_period_over',
  invalid_meal: 'invalid_request',
} as const satisfies Record<DomainErrorCode, ErrorCode>;

/** Fastify's own request errors, by their `code`. */
export const errorCodeOfFastify: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
};
