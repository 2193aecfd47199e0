// The error codes of the wire: every code a client can receive, its HTTP status, and a message it may carry.

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
  canteen_not_found: 404,
  dish_not_found: 404,
  feed_not_found: 404,
  webhook_not_found: 404,
  dishes_in_other_canteens: 409,
  openmensa_id_taken: 409,
  not_found: 404,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  rate_limited: 429,
  meal_not_rateable: 422,
  meal_not_yet_served: 422,
  rating_period_over: 422,
  menu_day_full: 422,
  internal_error: 500,
  service_unavailable: 503,
  storage_unavailable: 503,
  not_ready: 503,
} as const;

export type ErrorCode = keyof typeof httpStatusOf;

export const errorCodes = Object.keys(httpStatusOf) as readonly ErrorCode[];

/** A message a client may see for each code: the examples of the API documentation. */
export const exampleMessageOf = {
  invalid_request: '"rating" must be <= 5',
  invalid_json: 'The body is not valid JSON.',
  invalid_url: 'The URL is not valid.',
  invalid_cursor: 'The cursor is not one this list handed out.',
  unauthenticated: 'An Authorization: Bearer token is required.',
  invalid_token: 'The token is not valid.',
  forbidden: 'This route needs a token with the meals:write scope.',
  meal_not_found: 'The meal does not exist.',
  canteen_not_found: 'The canteen does not exist.',
  dish_not_found: 'The dish does not exist.',
  feed_not_found: 'The canteen has no feed of that name.',
  webhook_not_found: 'The webhook does not exist.',
  dishes_in_other_canteens: 'The dish 7 belongs to another canteen than dish 3.',
  openmensa_id_taken: 'openmensa_id 42 is taken by the canteen "mensa-academica".',
  not_found: 'No route GET /api/v1/nothing-here.',
  request_timeout: 'The request did not arrive in time.',
  payload_too_large: 'Request body is too large',
  unsupported_media_type: 'Unsupported Media Type',
  headers_too_large: 'The request headers are too large.',
  rate_limited: 'Too many requests: retry in 1 minute.',
  meal_not_rateable: 'This meal cannot be rated.',
  meal_not_yet_served: 'This meal has not been served yet.',
  rating_period_over: 'This meal was served more than one week ago and can no longer be rated.',
  menu_day_full: 'The canteen "default" would serve 512 meals on 2026-11-23; a day holds at most 500.',
  internal_error: 'Internal server error.',
  service_unavailable: 'The server is shutting down; retry on another connection.',
  storage_unavailable: 'The database cannot store this write now; nothing was saved. Retry later.',
  not_ready: 'The database does not answer.',
} as const satisfies Record<ErrorCode, string>;
