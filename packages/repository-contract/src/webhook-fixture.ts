import {
  webhookEventTypes,
  type CanteenId,
  type DishId,
  type RecordedEvent,
  type WebhookDefinition,
  type WebhookEventType,
} from '@canteen-meals/domain';
import type { AvailabilityRepository, WebhookOutbox, WebhookRepository } from '@canteen-meals/domain/ports';
import { expect } from 'vitest';
import type { ReadRepositoryFixture } from './read-repository-fixture.js';

/** Every port over one fresh store, the webhook endpoints and the outbox included. */
export interface WebhookRepositoryFixture extends ReadRepositoryFixture {
  readonly webhooks: WebhookRepository;
  readonly outbox: WebhookOutbox;
  /** Changes of a serving's availability record their event in the outbox. */
  readonly availability: AvailabilityRepository;
}

export type CreateWebhookRepositoryFixture = () => WebhookRepositoryFixture | Promise<WebhookRepositoryFixture>;

/** A secret in the Standard Webhooks form (24 bytes); its value matters to no test here. */
export const sampleSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** An endpoint subscribed to every event unless the test says otherwise (an object mother). */
export function webhookDefinition(id: string, traits: Partial<Omit<WebhookDefinition, 'id'>> = {}): WebhookDefinition {
  return { id, url: `https://receiver.example/${id}`, events: [...webhookEventTypes], secret: sampleSecret, ...traits };
}

/** The shape of every event id: at most 64 of [A-Za-z0-9_-]. */
export const eventIdShape = /^[A-Za-z0-9_-]{1,64}$/;

const hour = 60 * 60 * 1000;
export const hoursAfter = (instant: Date, hours: number) => new Date(instant.getTime() + hours * hour);

/**
 * What a store recorded, seen the way production sees it: an endpoint `observer` subscribed to every event (saved
 * when missing), every recorded event fanned out at `at`, and the observer's deliveries read back. Answers the events
 * in a stable order (by type, instant, canteen, date, then meal or user), each checked for an id of the right shape.
 */
export async function observedEvents(fixture: WebhookRepositoryFixture, at: Date): Promise<RecordedEvent[]> {
  if ((await fixture.webhooks.find('observer')) === undefined)
    await fixture.webhooks.save(webhookDefinition('observer'), at);
  while ((await fixture.outbox.fanOut(at, 100)) > 0);
  const events = (await fixture.outbox.deliveries('observer', { limit: 1000 })).map((delivery) => delivery.event);
  for (const event of events) expect(event.id).toMatch(eventIdShape);
  return events.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
}

/** The events without their ids (random), for comparing. */
export function withoutIds(events: readonly RecordedEvent[]): Omit<RecordedEvent, 'id'>[] {
  return events.map(({ id: _id, ...event }) => event);
}

function sortKey(event: RecordedEvent): string {
  const order = webhookEventTypes.indexOf(event.type as WebhookEventType);
  const data = event.data as { canteenId: string; date: string; mealId?: number; userId?: string };
  return JSON.stringify([
    order,
    event.occurredAt.toISOString(),
    data.canteenId,
    data.date,
    data.mealId ?? 0,
    data.userId ?? '',
  ]);
}

/** The id of the canteen's dish named `name` (as first served), read through DishQueries. */
export async function dishIdOf(
  fixture: WebhookRepositoryFixture,
  canteenId: CanteenId,
  name: string,
  asOf: Date,
): Promise<DishId> {
  const dish = (await fixture.dishQueries.ofCanteen(canteenId, asOf)).find((summary) => summary.name === name);
  if (dish === undefined) throw new Error(`the canteen ${canteenId} has no dish "${name}" with a serving`);
  return dish.id;
}

/**
 * An endpoint `id` (subscribed to menu.published) that a failed attempt disabled at `at`: a meal written for it, its
 * delivery claimed and recorded as failed for good with `disable`. Leaves one delivery in its log and no event in the
 * outbox; call it before the test's own writes.
 */
export async function disabledEndpoint(fixture: WebhookRepositoryFixture, id: string, at: Date): Promise<void> {
  await fixture.webhooks.save(webhookDefinition(id, { events: ['menu.published'] }), at);
  await fixture.meals.upsertMany([{ id: 999, name: 'Setup meal', servedAt: at, rateable: false }], undefined, at);
  while ((await fixture.outbox.fanOut(at, 100)) > 0);
  const claimed = await fixture.outbox.claimDue(at, 100, 60_000);
  for (const { delivery } of claimed) {
    await fixture.outbox.record(
      delivery.webhookId,
      delivery.event.id,
      { kind: 'failed', status: 500, error: 'HTTP 500', retryAt: null },
      at,
      true,
    );
  }
  if ((await fixture.webhooks.find(id))?.disabledAt === null) throw new Error(`the endpoint ${id} was not disabled`);
}
