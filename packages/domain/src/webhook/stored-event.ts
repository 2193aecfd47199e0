import type { UserId } from '../shared/user-id.js';
import {
  isWebhookEventType,
  type FavouritesUpcoming,
  type MealAvailabilityChanged,
  type MealWithdrawn,
  type MenuPublished,
  type RecordedEvent,
  type WebhookEvent,
} from './webhook-event.js';

// How adapters keep an event's data: JSON text with the domain's names, every instant as epoch milliseconds (exact,
// and what SQL compares without parsing). Wire-neutral: the HTTP sender maps it to the Standard Webhooks body.

/** The event's data as stored. */
export function storedEventData(event: WebhookEvent): string {
  switch (event.type) {
    case 'menu.published':
      return JSON.stringify(event.data);
    case 'meal.withdrawn':
      return JSON.stringify({ ...event.data, withdrawnAt: event.data.withdrawnAt.getTime() });
    case 'meal.availability_changed':
      return JSON.stringify({ ...event.data, availabilityChangedAt: event.data.availabilityChangedAt.getTime() });
    case 'favourites.upcoming':
      return JSON.stringify({
        ...event.data,
        meals: event.data.meals.map((meal) => ({ ...meal, servedAt: meal.servedAt.getTime() })),
      });
  }
}

/** An event as an adapter stored it, read back; throws on a type the catalogue does not know (a corrupt row). */
export function recordedEventOf(row: {
  readonly id: string;
  readonly type: string;
  readonly occurredAt: Date;
  readonly data: string;
}): RecordedEvent {
  const { id, type } = row;
  const occurredAt = new Date(row.occurredAt.getTime());
  if (!isWebhookEventType(type)) throw new RangeError(`the stored event ${id} has an unknown type "${type}"`);
  switch (type) {
    case 'menu.published':
      return { id, occurredAt, type, data: JSON.parse(row.data) as MenuPublished };
    case 'meal.withdrawn': {
      const data = JSON.parse(row.data) as Omit<MealWithdrawn, 'withdrawnAt'> & { withdrawnAt: number };
      return { id, occurredAt, type, data: { ...data, withdrawnAt: new Date(data.withdrawnAt) } };
    }
    case 'meal.availability_changed': {
      const data = JSON.parse(row.data) as Omit<MealAvailabilityChanged, 'availabilityChangedAt'> & {
        availabilityChangedAt: number;
      };
      return { id, occurredAt, type, data: { ...data, availabilityChangedAt: new Date(data.availabilityChangedAt) } };
    }
    case 'favourites.upcoming': {
      type StoredMeal = Omit<FavouritesUpcoming['meals'][number], 'servedAt'> & { servedAt: number };
      const data = JSON.parse(row.data) as Omit<FavouritesUpcoming, 'meals'> & { meals: StoredMeal[] };
      const meals = data.meals.map((meal) => ({ ...meal, servedAt: new Date(meal.servedAt) }));
      return { id, occurredAt, type, data: { ...data, meals } };
    }
  }
}

/** An event id from a random UUID: `evt_` and its 32 hex digits (what adapters make ids of). */
export function eventIdOf(uuid: string): string {
  return `evt_${uuid.replaceAll('-', '').toLowerCase()}`;
}

/** The user an event is about (personal data, erased with the user's other data), or null. */
export function subjectOf(event: WebhookEvent): UserId | null {
  return event.type === 'favourites.upcoming' ? event.data.userId : null;
}
