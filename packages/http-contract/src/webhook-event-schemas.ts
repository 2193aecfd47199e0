import { webhookEventTypes, type RecordedEvent } from '@canteen-meals/domain';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { AvailabilityStatusData, MealId } from './meal-schemas.js';

// The events as receivers get them: the Standard Webhooks body `{type, timestamp, data}`, with `data` in the wire's
// snake_case. The server maps its events here (webhookPayloadOf) and the client types what it verifies with them.

const DishId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Dish id' });
const Day = Type.String({
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
  description: "A day on the canteen's clocks, YYYY-MM-DD",
});
const Instant = Type.String({ format: 'date-time' });
const CanteenIdData = Type.String({ description: 'Canteen id' });

export const MenuPublishedData = Type.Object({
  canteen_id: CanteenIdData,
  date: Day,
  cause: Type.Union([Type.Literal('upsert'), Type.Literal('import'), Type.Literal('feed')], {
    description:
      'What wrote the day: an admin upsert, an import (command line or admin), or a scheduled or asked-for feed fetch',
  }),
  added: Type.Array(MealId, { description: 'Meals new on this day' }),
  changed: Type.Array(MealId, { description: 'Meals written again (upsert) or changed (import), served on this day' }),
  withdrawn: Type.Array(MealId, { description: 'Meals this write took off the day' }),
});
export type MenuPublishedData = Static<typeof MenuPublishedData>;

export const FavouritesUpcomingData = Type.Object({
  sub: Type.String({ description: "The user: their token's sub" }),
  canteen_id: CanteenIdData,
  date: Day,
  meals: Type.Array(Type.Object({ meal_id: MealId, dish_id: DishId, name: Type.String(), served_at: Instant }), {
    description: 'The servings of dishes the user marked, by serving time',
  }),
});
export type FavouritesUpcomingData = Static<typeof FavouritesUpcomingData>;

export const MealWithdrawnData = Type.Object({
  meal_id: MealId,
  canteen_id: CanteenIdData,
  date: Day,
  dish_id: Type.Union([DishId, Type.Null()]),
  withdrawn_at: Instant,
});
export type MealWithdrawnData = Static<typeof MealWithdrawnData>;

export const MealAvailabilityChangedData = Type.Object({
  meal_id: MealId,
  availability: AvailabilityStatusData,
  availability_changed_at: Instant,
  canteen_id: CanteenIdData,
  date: Day,
});
export type MealAvailabilityChangedData = Static<typeof MealAvailabilityChangedData>;

const payload = <const T extends string, D extends TSchema>(type: T, data: D) =>
  Type.Object({
    type: Type.Literal(type),
    timestamp: Type.String({ format: 'date-time', description: 'When the change that caused the event committed' }),
    data,
  });

export const MenuPublishedPayload = payload('menu.published', MenuPublishedData);
export const FavouritesUpcomingPayload = payload('favourites.upcoming', FavouritesUpcomingData);
export const MealWithdrawnPayload = payload('meal.withdrawn', MealWithdrawnData);
export const MealAvailabilityChangedPayload = payload('meal.availability_changed', MealAvailabilityChangedData);

/** The body of a delivery: one of the events of the catalogue. */
export const WebhookPayload = Type.Union([
  MenuPublishedPayload,
  FavouritesUpcomingPayload,
  MealWithdrawnPayload,
  MealAvailabilityChangedPayload,
]);
export type WebhookPayload = Static<typeof WebhookPayload>;

/** The event names of the catalogue, for receivers that check a body's `type`. */
export const webhookEventNames: readonly WebhookPayload['type'][] = webhookEventTypes;

/** An event as it goes out: the body a receiver verifies and parses. */
export function webhookPayloadOf(event: RecordedEvent): WebhookPayload {
  const timestamp = event.occurredAt.toISOString();
  switch (event.type) {
    case 'menu.published': {
      const { canteenId, date, cause, added, changed, withdrawn } = event.data;
      return {
        type: event.type,
        timestamp,
        data: {
          canteen_id: canteenId,
          date,
          cause,
          added: [...added],
          changed: [...changed],
          withdrawn: [...withdrawn],
        },
      };
    }
    case 'favourites.upcoming': {
      const { userId, canteenId, date, meals } = event.data;
      return {
        type: event.type,
        timestamp,
        data: {
          sub: userId,
          canteen_id: canteenId,
          date,
          meals: meals.map((meal) => ({
            meal_id: meal.mealId,
            dish_id: meal.dishId,
            name: meal.name,
            served_at: meal.servedAt.toISOString(),
          })),
        },
      };
    }
    case 'meal.withdrawn': {
      const { mealId, canteenId, date, dishId, withdrawnAt } = event.data;
      return {
        type: event.type,
        timestamp,
        data: {
          meal_id: mealId,
          canteen_id: canteenId,
          date,
          dish_id: dishId,
          withdrawn_at: withdrawnAt.toISOString(),
        },
      };
    }
    case 'meal.availability_changed': {
      const { mealId, canteenId, date, availability, availabilityChangedAt } = event.data;
      return {
        type: event.type,
        timestamp,
        data: {
          meal_id: mealId,
          availability,
          availability_changed_at: availabilityChangedAt.toISOString(),
          canteen_id: canteenId,
          date,
        },
      };
    }
  }
}
