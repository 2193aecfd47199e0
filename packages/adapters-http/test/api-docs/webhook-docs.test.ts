import { webhookEventTypes, type RecordedEvent } from '@canteen-meals/domain';
import {
  exampleFavouritesUpcoming,
  exampleMealWithdrawn,
  exampleMenuPublished,
  WebhookPayload,
  webhookPayloadOf,
} from '@canteen-meals/http-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchemaValidator } from '../../src/schema-validation.js';
import { buildTestApp } from '../app-fixture.js';

// The validator the routes use: formats (date-time) checked, nothing coerced.
const isPayload = createSchemaValidator().compile(WebhookPayload);

let app: Awaited<ReturnType<typeof buildTestApp>>['app'];
beforeAll(async () => {
  app = (await buildTestApp()).app;
});
afterAll(() => app.close());

describe('the events in the OpenAPI document', () => {
  it('lists each event of the catalogue under webhooks, with the signature headers and an example body of its schema', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();

    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.webhooks)).toEqual([...webhookEventTypes]);
    for (const type of webhookEventTypes) {
      const operation = document.webhooks[type].post;
      expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      const media = operation.requestBody.content['application/json'];
      expect(media.examples.example.value.type).toBe(type);
      expect(isPayload(media.examples.example.value), JSON.stringify(isPayload.errors)).toBe(true);
    }
  });
});

describe('webhookPayloadOf', () => {
  const occurredAt = new Date('2026-03-10T12:00:00.000Z');
  const events: RecordedEvent[] = [
    {
      id: 'evt_1',
      occurredAt,
      type: 'menu.published',
      data: {
        canteenId: 'mensa-academica',
        date: '2026-03-11',
        cause: 'feed',
        added: [43, 44],
        changed: [],
        withdrawn: [],
      },
    },
    {
      id: 'evt_2',
      occurredAt: new Date('2026-03-10T12:00:01.000Z'),
      type: 'favourites.upcoming',
      data: {
        userId: 'alice',
        canteenId: 'mensa-academica',
        date: '2026-03-11',
        meals: [{ mealId: 43, dishId: 7, name: 'Lentil soup', servedAt: new Date('2026-03-11T11:30:00.000Z') }],
      },
    },
    {
      id: 'evt_3',
      occurredAt: new Date('2026-03-10T12:05:00.000Z'),
      type: 'meal.withdrawn',
      data: {
        mealId: 41,
        canteenId: 'mensa-academica',
        date: '2026-03-11',
        dishId: 5,
        withdrawnAt: new Date('2026-03-10T12:05:00.000Z'),
      },
    },
  ];

  it('maps each event to the wire (the documented examples are its answers) and its schema', () => {
    const payloads = events.map(webhookPayloadOf);
    expect(payloads).toEqual([exampleMenuPublished, exampleFavouritesUpcoming, exampleMealWithdrawn]);
    for (const payload of payloads) expect(isPayload(payload), JSON.stringify(isPayload.errors)).toBe(true);
    expect(isPayload({ ...exampleMealWithdrawn, data: { ...exampleMealWithdrawn.data, meal_id: '41' } })).toBe(false);
  });
});
