import { createInMemoryAdapters, FixedClock, InMemoryDatabase } from '@canteen-meals/adapters-memory';
import {
  createUseCases,
  type DeliverySettings,
  type DetailedMeal,
  type RecordedEvent,
  type Webhook,
  type WebhookEventType,
} from '@canteen-meals/domain';
import type { SendOutcome } from '@canteen-meals/domain/ports';

/** What a test sender saw: one line per attempt. */
export interface Attempt {
  readonly webhookId: string;
  readonly event: RecordedEvent;
}

/**
 * The use cases over the in-memory store, a clock the test moves, jitter at its middle (every wait is the nominal one)
 * and a sender that answers what the test says: the delivery worker's world without a network.
 */
export function webhookWorld(options: { readonly delivery?: Partial<DeliverySettings> } = {}) {
  const clock = new FixedClock('2026-09-01T08:00:00Z');
  const attempts: Attempt[] = [];
  let answer: (webhook: Webhook, event: RecordedEvent) => Promise<SendOutcome> = async () => ({
    delivered: true,
    status: 200,
  });
  let secrets = 0;
  const adapters = createInMemoryAdapters(new InMemoryDatabase({ defaultTimeZone: 'UTC' }));
  const useCases = createUseCases(
    adapters,
    clock,
    { start: '11:00', timeZone: 'UTC' },
    {},
    {
      sender: {
        send: (webhook, event) => {
          attempts.push({ webhookId: webhook.id, event });
          return answer(webhook, event);
        },
      },
      newSecret: () => `whsec_${String(++secrets).padStart(4, '0')}${'A'.repeat(36)}`,
      delivery: { baseMs: 30_000, random: () => 0.5, ...options.delivery },
    },
  );
  let nextMealId = 1;

  return {
    clock,
    adapters,
    useCases,
    attempts,
    /** From now on the sender answers this. */
    answer(next: typeof answer | SendOutcome) {
      answer = typeof next === 'function' ? next : async () => next;
    },
    /** An endpoint at https://receiver.example/<id>, subscribed to `events` (every event by default). */
    async endpoint(
      id: string,
      events: readonly WebhookEventType[] = ['menu.published', 'favourites.upcoming', 'meal.withdrawn'],
    ) {
      const saved = await useCases.saveWebhook.execute({
        id,
        url: `https://receiver.example/${id}`,
        events,
        secret: null,
      });
      if (!saved.ok) throw new Error(saved.refusal.message);
      return saved.value.webhook;
    },
    /** An admin's upsert of one new meal tomorrow: one `menu.published` event in the outbox. */
    async publishMenu(): Promise<void> {
      const servedAt = new Date(clock.now().getTime() + 24 * 3_600_000);
      const meal: DetailedMeal = {
        canteenId: 'default',
        position: 0,
        id: nextMealId++,
        name: 'Lentil soup',
        servedAt,
        rateable: true,
        category: null,
        notes: [],
        labels: [],
        prices: {},
      };
      const upserted = await useCases.upsertMeals.execute([meal]);
      if (!upserted.ok) throw new Error(upserted.refusal.message);
    },
    /** Runs delivery passes as the worker would: again at once while a pass stopped at a bound. */
    async deliver() {
      let pass = await useCases.deliverWebhooks.execute();
      while (pass.nextRunAt !== null && pass.nextRunAt <= clock.now()) pass = await useCases.deliverWebhooks.execute();
      return pass;
    },
  };
}

export const hour = 3_600_000;
export const day = 24 * hour;
