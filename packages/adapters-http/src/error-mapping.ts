import type { Refusal, RefusalCode } from '@canteen-meals/domain';
import type { FastifyReply } from 'fastify';

export { errorCodes, httpStatusOf, type ErrorCode } from '@canteen-meals/http-contract';
import { httpStatusOf, type ErrorCode } from '@canteen-meals/http-contract';

/** The wire code of each refusal of the domain; a new refusal without a wire code is a compile error here. */
export const errorCodeOfRefusal = {
  meal_not_found: 'meal_not_found',
  meal_not_rateable: 'meal_not_rateable',
  meal_not_yet_served: 'meal_not_yet_served',
  meal_not_today: 'meal_not_today',
  rating_period_over: 'rating_period_over',
  invalid_meal: 'invalid_request',
  canteen_not_found: 'canteen_not_found',
  invalid_canteen: 'invalid_request',
  openmensa_id_taken: 'openmensa_id_taken',
  invalid_menu_range: 'invalid_request',
  menu_day_full: 'menu_day_full',
  dish_not_found: 'dish_not_found',
  feed_not_found: 'feed_not_found',
  dishes_in_other_canteens: 'dishes_in_other_canteens',
  invalid_dish_merge: 'invalid_request',
  invalid_webhook: 'invalid_request',
  webhook_not_found: 'webhook_not_found',
  unknown_label: 'invalid_request',
  too_many_aversions: 'too_many_aversions',
  invalid_push_subscription: 'invalid_request',
  forbidden: 'forbidden',
} as const satisfies Record<RefusalCode, ErrorCode>;

export type WireCodeOf<R extends RefusalCode> = (typeof errorCodeOfRefusal)[R];

/** The wire codes a use case's refusals answer with: what a route's error list takes from the use case. */
export function wireCodesOf<const R extends RefusalCode>(refusals: readonly R[]): WireCodeOf<R>[] {
  return [...new Set(refusals.map((refusal) => errorCodeOfRefusal[refusal]))];
}

/** Answers a use case's refusal in the error envelope, with the status of its wire code. */
export function sendRefusal(reply: FastifyReply, { code, message }: Refusal) {
  const wireCode = errorCodeOfRefusal[code];
  return reply.code(httpStatusOf[wireCode]).send({ status: 'error' as const, error: { code: wireCode, message } });
}

/** Fastify's own request errors, by their `code`. */
export const errorCodeOfFastify: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
};
