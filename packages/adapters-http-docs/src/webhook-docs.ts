import {
  exampleFavouritesUpcoming,
  exampleMealAvailabilityChanged,
  exampleMealWithdrawn,
  exampleMenuPublished,
  FavouritesUpcomingPayload,
  MealAvailabilityChangedPayload,
  MealWithdrawnPayload,
  MenuPublishedPayload,
} from '@canteen-meals/http-contract';
import type { SwaggerOptions } from '@fastify/swagger';
import type { TSchema } from '@sinclair/typebox';

type OpenApiDocument = NonNullable<Extract<SwaggerOptions, { openapi?: unknown }>['openapi']>;
type OpenApiWebhooks = NonNullable<Extract<OpenApiDocument, { webhooks?: unknown }>['webhooks']>;

const signatureHeaders = [
  {
    name: 'webhook-id',
    in: 'header' as const,
    required: true,
    description: "The event's id: the same on every retry, so that a receiver can drop what it already handled",
    schema: { type: 'string' as const, pattern: '^[A-Za-z0-9_-]{1,64}$' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header' as const,
    required: true,
    description: 'When this attempt was signed, in seconds since 1970: refuse one too far from your clock (replays)',
    schema: { type: 'string' as const, pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header' as const,
    required: true,
    description:
      '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the secret after `whsec_`',
    schema: { type: 'string' as const, pattern: '^v1,[A-Za-z0-9+/]+=*( v1,[A-Za-z0-9+/]+=*)*$' },
  },
];

const event = (
  operationId: string,
  summary: string,
  description: string,
  schema: TSchema,
  example: unknown,
): OpenApiWebhooks[string] => ({
  post: {
    operationId,
    summary,
    description,
    parameters: signatureHeaders,
    requestBody: {
      required: true,
      content: { 'application/json': { schema, examples: { example: { value: example } } } },
    },
    responses: {
      '2XX': { description: 'Delivered. Anything else, a redirect or no answer within WEBHOOK_TIMEOUT_MS is retried' },
    },
  },
});

/**
 * The events the service POSTs to webhook endpoints, as OpenAPI 3.1 `webhooks`: Standard Webhooks bodies and headers,
 * at least once (deduplicate by `webhook-id`), retried with exponential backoff for up to 3 days.
 */
export const webhookDocs: OpenApiWebhooks = {
  'menu.published': event(
    'menuPublished',
    "A canteen's day was created or changed",
    "By an admin's upsert, an import or a feed fetch: the change, not the menu (read it with GET /api/v1/meals?canteen=&date=).",
    MenuPublishedPayload,
    exampleMenuPublished,
  ),
  'favourites.upcoming': event(
    'favouritesUpcoming',
    "A user's favourite dish is on a coming day",
    'One per user and canteen day, when servings of dishes the user marked (at any serving) appear on a future day.',
    FavouritesUpcomingPayload,
    exampleFavouritesUpcoming,
  ),
  'meal.withdrawn': event(
    'mealWithdrawn',
    'A meal left the menus',
    "An admin's correction (DELETE /api/v1/admin/meals/{meal_id}), or an import that no longer lists a coming meal.",
    MealWithdrawnPayload,
    exampleMealWithdrawn,
  ),
  'meal.availability_changed': event(
    'mealAvailabilityChanged',
    'The kitchen changed how much of a serving is left',
    'PUT /api/v1/kitchen/meals/{meal_id}/availability with another status than the serving has (the same status again records nothing); `data` is the live `availability` event with the canteen and its day.',
    MealAvailabilityChangedPayload,
    exampleMealAvailabilityChanged,
  ),
};
