import { Type } from '@sinclair/typebox';
import { MealId } from './meal-schemas.js';
import { LabelCode } from './label-schemas.js';

const ExportedMeal = {
  meal_id: MealId,
  name: Type.String(),
  served_at: Type.String({ format: 'date-time' }),
};

export const UserDataExportData = Type.Object({
  user_id: Type.String(),
  exported_at: Type.String({ format: 'date-time' }),
  markings: Type.Array(Type.Object(ExportedMeal), { description: 'The marked meals, by meal id' }),
  ratings: Type.Array(Type.Object({ ...ExportedMeal, rating: Type.Integer({ minimum: 1, maximum: 5 }) }), {
    description: "The rated meals with the user's rating, by meal id",
  }),
  preferences: Type.Optional(
    Type.Object(
      { without: Type.Array(LabelCode), only: Type.Array(LabelCode) },
      { description: 'The label filter of PUT /me/preferences; both empty when none is set' },
    ),
  ),
  aversions: Type.Optional(
    Type.Array(Type.Object({ dish_id: Type.Integer({ minimum: 1 }), since: Type.String({ format: 'date-time' }) }), {
      description: 'The dishes the user avoids (PUT /me/aversions/{dish_id}), by dish id',
    }),
  ),
  push_subscriptions: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.String(),
        endpoint: Type.String(),
        keys: Type.Object({ p256dh: Type.String(), auth: Type.String() }),
        expiration_time: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
        created_at: Type.String({ format: 'date-time' }),
      }),
      {
        description:
          "The user's push subscriptions (PUT /me/push-subscriptions), oldest first: everything the service keeps of each",
      },
    ),
  ),
  notifications: Type.Optional(
    Type.Object(
      { favourites_today: Type.Boolean(), sold_out: Type.Boolean(), language: Type.String() },
      { description: 'The notification settings (PUT /me/notifications), the defaults when none were set' },
    ),
  ),
});

export const UserDataErasureData = Type.Object({
  markings_erased: Type.Integer({ minimum: 0 }),
  ratings_erased: Type.Integer({ minimum: 0 }),
  preferences_erased: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1, description: 'The label filter, when one was set' }),
  ),
  aversions_erased: Type.Optional(Type.Integer({ minimum: 0, description: 'The avoided dishes' })),
  push_subscriptions_erased: Type.Optional(Type.Integer({ minimum: 0, description: 'The push subscriptions' })),
  notification_settings_erased: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1, description: 'The notification settings, when set' }),
  ),
});

/**
 * GET /me/access: who the token names and what it may do here, the scopes after the role mapping
 * (TOKEN_ROLES_CLAIM, TOKEN_ROLE_SCOPES) as every route checks them. The pages ask it before they offer what a scope
 * allows.
 */
const StaffScopeName = Type.Union(
  [
    Type.Literal('meals:write'),
    Type.Literal('meals:manage'),
    Type.Literal('meals:kitchen'),
    Type.Literal('meals:read-reports'),
  ],
  { description: 'A staff scope' },
);

export const AccessData = Type.Object({
  user: Type.String({ description: "The token's `sub`" }),
  scopes: Type.Array(Type.String(), {
    description:
      'The scopes the service grants this token for every canteen, as granted (`meals:write`, `meals:read-reports`, `meals:kitchen`, `meals:manage`), sorted; empty for a plain user and for staff of some canteens only (see `canteens`)',
  }),
  global: Type.Array(StaffScopeName, {
    description:
      'What the token may do at every canteen: its scopes there with the ones they imply (`meals:write` implies every other; `meals:manage` implies `meals:kitchen` and `meals:read-reports`)',
  }),
  canteens: Type.Record(Type.String(), Type.Array(StaffScopeName), {
    description:
      'What the token may do at each canteen beyond `global` (granted by `ROLE@CANTEEN_ID` roles), implied scopes included; only canteens that exist',
  }),
});
