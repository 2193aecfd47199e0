import { maxWebhookUrlLength, webhookEventTypes, webhookSecretPattern } from '@canteen-meals/domain';
import { Type, type Static } from '@sinclair/typebox';

export const WebhookParams = Type.Object({
  webhook_id: Type.String({ description: 'Webhook id: 1 to 64 of A-Z, a-z, 0-9, "_" and "-"' }),
});

const WebhookEventName = Type.Union(
  webhookEventTypes.map((type) => Type.Literal(type)),
  { description: 'An event of the catalogue (see the webhooks of this document)' },
);

/** PUT /admin/webhooks/{webhook_id}: the whole endpoint. */
export const WebhookBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: maxWebhookUrlLength,
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
      description:
        'Where events are POSTed: http(s), no credentials; it must reach a public address unless OUTBOUND_ALLOW_PRIVATE_NETWORKS=1',
    }),
    events: Type.Array(WebhookEventName, { minItems: 1, maxItems: webhookEventTypes.length, uniqueItems: true }),
    secret: Type.Optional(
      Type.String({
        pattern: webhookSecretPattern.source,
        description:
          'The signing secret, "whsec_" and the base64 of 24 to 64 random bytes. Absent: one is generated and shown in this answer only',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ url: 'https://app.example.com/hooks/meals', events: ['menu.published', 'favourites.upcoming'] }],
  },
);
export type WebhookBody = Static<typeof WebhookBody>;

const NullableInstant = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const WebhookData = Type.Object({
  webhook_id: Type.String(),
  url: Type.String(),
  events: Type.Array(WebhookEventName),
  secret: Type.Optional(
    Type.String({ description: 'Only in the answer of the PUT that generated it: keep it, it is never shown again' }),
  ),
  enabled: Type.Boolean({ description: 'false once it failed for 3 days; a PUT enables it again' }),
  failing_since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Since when every attempt failed; null after a success or a PUT',
  }),
  disabled_at: NullableInstant,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type WebhookData = Static<typeof WebhookData>;

export const WebhooksData = Type.Object({ webhooks: Type.Array(WebhookData, { description: 'By webhook id' }) });
export type WebhooksData = Static<typeof WebhooksData>;

export const DeletedWebhookData = Type.Object({ webhook_id: Type.String(), deleted: Type.Literal(true) });
export type DeletedWebhookData = Static<typeof DeletedWebhookData>;

export const DeliveryData = Type.Object({
  event_id: Type.String({ description: 'The webhook-id header of every attempt: receivers deduplicate by it' }),
  type: WebhookEventName,
  state: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')], {
    description: 'failed: given up, 3 days after the first attempt',
  }),
  attempts: Type.Integer({ minimum: 0 }),
  last_status: Type.Union([Type.Integer(), Type.Null()], {
    description: "The last attempt's HTTP status; null without an answer",
  }),
  last_error: Type.Union([Type.String(), Type.Null()], {
    description: "Why the last attempt failed (never the receiver's body)",
  }),
  last_attempt_at: NullableInstant,
  next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When pending: the next attempt',
  }),
  created_at: Type.String({ format: 'date-time' }),
});
export type DeliveryData = Static<typeof DeliveryData>;

export const DeliveriesData = Type.Object({
  deliveries: Type.Array(DeliveryData, { description: 'Newest first' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
export type DeliveriesData = Static<typeof DeliveriesData>;
