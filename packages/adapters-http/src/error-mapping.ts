import type { DomainErrorCode } from '@canteen-meals/domain';

export { errorCodes, httpStatusOf, type ErrorCode } from '@canteen-meals/http-contract';
import type { ErrorCode } from '@canteen-meals/http-contract';

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
