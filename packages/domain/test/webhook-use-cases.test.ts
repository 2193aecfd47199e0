import { createInMemoryAdapters, FixedClock } from '@canteen-meals/adapters-memory';
import { isWebhookSecret, SaveWebhook, type SaveWebhookCommand } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { webhookWorld } from './support/webhook-world.js';

const given = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const command = (overrides: Partial<SaveWebhookCommand> = {}): SaveWebhookCommand => ({
  id: 'app-backend',
  url: 'https://app.example.com/hooks/meals',
  events: ['menu.published'],
  secret: given,
  ...overrides,
});

describe('SaveWebhook', () => {
  it('creates with a generated secret (said to be generated), keeps it on a replacement without one, rotates it to a given one', async () => {
    const world = webhookWorld();
    const created = await world.useCases.saveWebhook.execute(command({ secret: null }));
    expect(created).toMatchObject({
      ok: true,
      value: { created: true, secretGenerated: true, webhook: { secret: `whsec_0001${'A'.repeat(36)}` } },
    });

    world.clock.advance(60_000);
    const kept = await world.useCases.saveWebhook.execute(command({ secret: null, events: ['meal.withdrawn'] }));
    expect(kept).toMatchObject({
      ok: true,
      value: { created: false, secretGenerated: false, webhook: { secret: `whsec_0001${'A'.repeat(36)}` } },
    });
    const replaced = await world.useCases.saveWebhook.execute(command({ events: ['meal.withdrawn'] }));
    expect(replaced).toMatchObject({
      ok: true,
      value: {
        created: false,
        secretGenerated: false,
        webhook: { secret: given, events: ['meal.withdrawn'], createdAt: new Date('2026-09-01T08:00:00Z') },
      },
    });
  });

  it.each([
    ['an id with a slash', { id: 'a/b' }, 'the webhook id must be 1 to 64 of A-Z, a-z, 0-9, "_" and "-"'],
    ['an id of 65 characters', { id: 'x'.repeat(65) }, 'the webhook id'],
    ['an ftp URL', { url: 'ftp://app.example.com/hooks' }, 'the url must be an http or https URL'],
    ['credentials in the URL', { url: 'https://user:pass@app.example.com/' }, 'without credentials'],
    ['no events', { events: [] }, 'events must name at least one event'],
    [
      'an unknown event',
      { events: ['menu.deleted' as 'menu.published'] },
      'events: "menu.deleted" is not one of menu.published, favourites.upcoming, meal.withdrawn',
    ],
    ['a repeated event', { events: ['menu.published', 'menu.published'] as const }, 'events must not repeat an event'],
    [
      'a secret without whsec_',
      { secret: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      'the secret must be "whsec_" and the base64 of 24 to 64 bytes',
    ],
    ['a secret of 21 bytes', { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2La' }, 'the secret must be'],
    ['a secret whose base64 is cut short', { secret: `${given}A` }, 'the secret must be'],
  ])('refuses %s as invalid_webhook, saving nothing', async (_, overrides, message) => {
    const world = webhookWorld();
    const refused = await world.useCases.saveWebhook.execute(command(overrides));

    expect(refused).toMatchObject({ ok: false, refusal: { code: 'invalid_webhook' } });
    expect(refused.ok ? '' : refused.refusal.message).toContain(message);
    expect(await world.useCases.listWebhooks.execute()).toEqual([]);
  });

  it("refuses a URL the outbound address rule refuses, in the rule's words", async () => {
    const saveWebhook = new SaveWebhook({
      ...createInMemoryAdapters(),
      clock: new FixedClock('2026-09-01T08:00:00Z'),
      newSecret: () => given,
      checkUrl: (url) => (url.includes('127.0.0.1') ? 'must reach a public address' : undefined),
    });

    expect(await saveWebhook.execute(command({ url: 'http://127.0.0.1:8080/' }))).toEqual({
      ok: false,
      refusal: { code: 'invalid_webhook', message: 'the url must reach a public address' },
    });
  });

  it('takes secrets of 24 to 64 bytes in padded base64', () => {
    const secretOf = (bytes: number) => `whsec_${Buffer.alloc(bytes, 7).toString('base64')}`;
    expect([23, 24, 32, 64, 65].map((bytes) => isWebhookSecret(secretOf(bytes)))).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
  });
});

describe('GetWebhook, ListWebhooks, DeleteWebhook', () => {
  it('answers webhook_not_found for an unknown id, and lists by id', async () => {
    const world = webhookWorld();
    await world.endpoint('zeta');
    await world.endpoint('alpha');

    expect(await world.useCases.getWebhook.execute('nope')).toMatchObject({
      ok: false,
      refusal: { code: 'webhook_not_found' },
    });
    expect((await world.useCases.listWebhooks.execute()).map((webhook) => webhook.id)).toEqual(['alpha', 'zeta']);
    expect(await world.useCases.deleteWebhook.execute('alpha')).toEqual({ ok: true, value: { id: 'alpha' } });
    expect(await world.useCases.deleteWebhook.execute('alpha')).toMatchObject({
      ok: false,
      refusal: { code: 'webhook_not_found' },
    });
    expect(await world.useCases.listDeliveries.execute({ webhookId: 'alpha', limit: 5, after: null })).toMatchObject({
      ok: false,
      refusal: { code: 'webhook_not_found' },
    });
  });

  it('removes the pending deliveries of a deleted endpoint: nothing more goes out to it', async () => {
    const world = webhookWorld();
    await world.endpoint('menus');
    await world.publishMenu();
    world.answer({ delivered: false, status: 503, error: 'HTTP 503' });
    await world.deliver();

    await world.useCases.deleteWebhook.execute('menus');
    world.clock.advance(60 * 60_000);

    expect(await world.deliver()).toMatchObject({ delivered: 0, failed: 0, nextRunAt: null });
    expect(world.attempts).toHaveLength(1);
  });
});

describe('ListDeliveries', () => {
  it('pages the log newest first, each delivery once, and says when no page follows', async () => {
    const world = webhookWorld();
    await world.endpoint('menus');
    for (let index = 0; index < 5; index += 1) {
      await world.publishMenu();
      await world.deliver();
      world.clock.advance(1_000);
    }

    const seen: string[] = [];
    let after = null;
    for (let page = 0; page < 5; page += 1) {
      const result = await world.useCases.listDeliveries.execute({ webhookId: 'menus', limit: 2, after });
      if (!result.ok) throw new Error(result.refusal.message);
      seen.push(...result.value.deliveries.map((delivery) => delivery.event.id));
      after = result.value.next;
      if (after === null) break;
    }

    const newestFirst = world.attempts.map(({ event }) => event.id).reverse();
    expect(seen).toEqual(newestFirst);
    expect(after).toBeNull();
  });
});
