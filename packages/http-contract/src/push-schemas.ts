import { Type, type Static } from '@sinclair/typebox';

const base64url = (bytes: number, description: string) =>
  Type.String({ pattern: '^[A-Za-z0-9_-]+={0,2}$', maxLength: Math.ceil((bytes * 4) / 3) + 2, description });

/** `GET /push`: whether the server sends Web Push, and the VAPID public key a browser subscribes with. */
export const PushStatusData = Type.Object({
  enabled: Type.Boolean(),
  public_key: Type.Optional(
    Type.String({ description: "The VAPID public key (base64url): PushManager.subscribe's applicationServerKey" }),
  ),
});
export type PushStatusData = Static<typeof PushStatusData>;

/** `PUT /me/push-subscriptions`: the browser's `PushSubscription.toJSON()`. */
export const PushSubscriptionBody = Type.Object(
  {
    endpoint: Type.String({ minLength: 1, maxLength: 2048, description: "The push service's URL (https)" }),
    expirationTime: Type.Optional(
      Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'Milliseconds since the epoch, or null' }),
    ),
    keys: Type.Object(
      {
        p256dh: base64url(65, "The browser's P-256 public key, 65 bytes uncompressed"),
        auth: base64url(16, 'The authentication secret, 16 bytes'),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        endpoint: 'https://fcm.googleapis.com/fcm/send/c1KrmpTuRm0:APA91bH…',
        expirationTime: null,
        keys: {
          p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
          auth: 'tBHItJI5svbpez7KI4CCXg',
        },
      },
    ],
  },
);
export type PushSubscriptionBody = Static<typeof PushSubscriptionBody>;

/** A subscription as its owner sees it: never its keys, nor the full endpoint. */
export const PushSubscriptionData = Type.Object({
  id: Type.String(),
  endpoint_origin: Type.String({ description: "The push service's origin, e.g. https://fcm.googleapis.com" }),
  created_at: Type.String({ format: 'date-time' }),
});
export type PushSubscriptionData = Static<typeof PushSubscriptionData>;

export const PushSubscriptionsData = Type.Object({
  subscriptions: Type.Array(PushSubscriptionData, { description: 'Oldest first; at most 10' }),
});
export type PushSubscriptionsData = Static<typeof PushSubscriptionsData>;

/** `DELETE /me/push-subscriptions?endpoint=…`. */
export const PushSubscriptionQuery = Type.Object(
  // Required, but checked by the route: an unknown parameter is named first, as on every route.
  {
    endpoint: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description: 'The endpoint of the subscription to remove (required)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PushSubscriptionQuery = Static<typeof PushSubscriptionQuery>;

/** `POST /me/push-subscriptions/test`: each subscription's outcome. */
export const TestPushData = Type.Object({
  results: Type.Array(
    Type.Object({
      id: Type.String(),
      endpoint_origin: Type.String(),
      outcome: Type.Union([Type.Literal('delivered'), Type.Literal('gone'), Type.Literal('failed')], {
        description:
          'delivered: the push service took it; gone: it said the subscription ended (404, 410), which is removed; failed: another answer or none',
      }),
      status: Type.Union([Type.Integer(), Type.Null()], {
        description: "The push service's HTTP status; null: no answer",
      }),
    }),
  ),
});
export type TestPushData = Static<typeof TestPushData>;

const NotificationLanguage = Type.Union([Type.Literal('en'), Type.Literal('de')], {
  description: 'The language of the notifications',
});

/**
 * `PUT /me/notifications`: what the caller is notified of; a field left out takes its default (the PUT sets all three).
 */
export const NotificationSettingsBody = Type.Object(
  {
    favourites_today: Type.Optional(
      Type.Boolean({ description: 'One notification on each day a canteen serves a dish you marked (absent: true)' }),
    ),
    sold_out: Type.Optional(Type.Boolean({ description: 'A marked meal of today sold out (absent: false)' })),
    language: Type.Optional(
      Type.Union([Type.Literal('en'), Type.Literal('de')], {
        description: 'The language of the notifications (absent: en)',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ favourites_today: true, sold_out: false, language: 'de' }] },
);
export type NotificationSettingsBody = Static<typeof NotificationSettingsBody>;

export const NotificationSettingsData = Type.Object({
  favourites_today: Type.Boolean(),
  sold_out: Type.Boolean(),
  language: NotificationLanguage,
});
export type NotificationSettingsData = Static<typeof NotificationSettingsData>;
