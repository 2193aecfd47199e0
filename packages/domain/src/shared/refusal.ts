/**
 * Every way a domain decision can refuse, with the message a client sees when the decision gives no detail.
 * A refusal is an expected answer, returned as a value; exceptions are left for what nobody expected.
 */
const defaultMessages = {
  meal_not_found: 'The meal does not exist.',
  meal_not_rateable: 'This meal cannot be rated.',
  meal_not_yet_served: 'This meal has not been served yet.',
  meal_not_today: "The meal is not served on its canteen's today.",
  rating_period_over: 'This meal was served more than one week ago and can no longer be rated.',
  invalid_meal: 'The meal is not valid.',
  canteen_not_found: 'The canteen does not exist.',
  invalid_canteen: 'The canteen is not valid.',
  openmensa_id_taken: 'The openmensa_id is taken by another canteen.',
  invalid_menu_range: 'The range of days is not valid.',
  menu_day_full: 'The canteen would serve more meals on a day than a day holds.',
  dish_not_found: 'The dish does not exist.',
  feed_not_found: 'The canteen has no feed of that name.',
  dishes_in_other_canteens: 'Dishes of different canteens cannot be merged.',
  invalid_dish_merge: 'The merge is not valid.',
  invalid_webhook: 'The webhook is not valid.',
  webhook_not_found: 'The webhook does not exist.',
  unknown_label: 'A label code is not in the vocabulary.',
  too_many_aversions: 'A person avoids at most 500 dishes: stop avoiding one first.',
  invalid_push_subscription: 'The push subscription is not valid.',
  forbidden: 'You may not do this.',
} as const;

export type RefusalCode = keyof typeof defaultMessages;

export const refusalCodes = Object.keys(defaultMessages) as readonly RefusalCode[];

export interface Refusal<C extends RefusalCode = RefusalCode> {
  readonly code: C;
  readonly message: string;
}

/** What a decision answers: the value it accepted, or why it refused. */
export type Result<T, C extends RefusalCode> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly refusal: Refusal<C> };

export function accept<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

export function refuse<C extends RefusalCode>(
  code: C,
  message: string = defaultMessages[code],
): { readonly ok: false; readonly refusal: Refusal<C> } {
  return { ok: false, refusal: { code, message } };
}

/** The same refusal as the answer of another decision (its value type differs, its refusal does not). */
export function mapResult<T, U, C extends RefusalCode>(result: Result<T, C>, map: (value: T) => U): Result<U, C> {
  return result.ok ? accept(map(result.value)) : result;
}
