import type {
  FavouritesUpcomingPayload,
  MealAvailabilityChangedPayload,
  MealWithdrawnPayload,
  MenuPublishedPayload,
} from './webhook-event-schemas.js';
import type { DeliveriesData, WebhookData } from './webhook-schemas.js';
import type { Static } from '@sinclair/typebox';

// The webhook examples of the API documentation and the README: an app's backend subscribes to new menus and
// favourites; a menu of 2026-03-11 is published, alice's favourite lentil soup is on it, and meal 41 is withdrawn.

export const exampleWebhook: WebhookData = {
  webhook_id: 'app-backend',
  url: 'https://app.example.com/hooks/meals',
  events: ['menu.published', 'favourites.upcoming'],
  enabled: true,
  failing_since: null,
  disabled_at: null,
  created_at: '2026-03-10T12:00:00.000Z',
  updated_at: '2026-03-10T12:00:00.000Z',
};

/** The answer of the PUT that created it without a secret: the generated one, shown this once. */
export const exampleCreatedWebhook: WebhookData = {
  ...exampleWebhook,
  secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD8mJ0qH+5Wmg=',
};

export const exampleMenuPublished: Static<typeof MenuPublishedPayload> = {
  type: 'menu.published',
  timestamp: '2026-03-10T12:00:00.000Z',
  data: {
    canteen_id: 'mensa-academica',
    date: '2026-03-11',
    cause: 'feed',
    added: [43, 44],
    changed: [],
    withdrawn: [],
  },
};

export const exampleFavouritesUpcoming: Static<typeof FavouritesUpcomingPayload> = {
  type: 'favourites.upcoming',
  timestamp: '2026-03-10T12:00:01.000Z',
  data: {
    sub: 'alice',
    canteen_id: 'mensa-academica',
    date: '2026-03-11',
    meals: [{ meal_id: 43, dish_id: 7, name: 'Lentil soup', served_at: '2026-03-11T11:30:00.000Z' }],
  },
};

export const exampleMealWithdrawn: Static<typeof MealWithdrawnPayload> = {
  type: 'meal.withdrawn',
  timestamp: '2026-03-10T12:05:00.000Z',
  data: {
    meal_id: 41,
    canteen_id: 'mensa-academica',
    date: '2026-03-11',
    dish_id: 5,
    withdrawn_at: '2026-03-10T12:05:00.000Z',
  },
};

export const exampleMealAvailabilityChanged: Static<typeof MealAvailabilityChangedPayload> = {
  type: 'meal.availability_changed',
  timestamp: '2026-03-11T12:40:00.000Z',
  data: {
    meal_id: 43,
    availability: 'sold_out',
    availability_changed_at: '2026-03-11T12:40:00.000Z',
    canteen_id: 'mensa-academica',
    date: '2026-03-11',
  },
};

export const exampleDeliveries: DeliveriesData = {
  deliveries: [
    {
      event_id: 'evt_5c9a0b7e2f4d4e1a9b3c6d8e7f1a2b3c',
      type: 'favourites.upcoming',
      state: 'pending',
      attempts: 1,
      last_status: 503,
      last_error: 'HTTP 503',
      last_attempt_at: '2026-03-10T12:00:02.000Z',
      next_attempt_at: '2026-03-10T12:00:32.000Z',
      created_at: '2026-03-10T12:00:01.000Z',
    },
    {
      event_id: 'evt_0f3b8e6d2a4c4b9e8f1d7a6c5b4e3d2f',
      type: 'menu.published',
      state: 'delivered',
      attempts: 1,
      last_status: 200,
      last_error: null,
      last_attempt_at: '2026-03-10T12:00:01.000Z',
      next_attempt_at: null,
      created_at: '2026-03-10T12:00:01.000Z',
    },
  ],
  next_cursor: null,
};
