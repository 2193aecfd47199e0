import type { Delivery, FeedSummary } from '@canteen-meals/client';
import { describe, expect, it } from 'vitest';
import { texts } from '../src/console/texts.js';
import { deliveryWords, feedStatusOf, instantFormat, outcomeWords } from '../src/console/wording.js';

const summary = (overrides: Partial<FeedSummary> = {}): FeedSummary => ({
  name: 'full',
  url: 'https://mensa.example/full.xml',
  schedule: '0 6 * * *',
  last_attempt_at: null,
  last_success_at: null,
  http_status: null,
  duration_ms: null,
  outcome: null,
  counts: null,
  last_error: null,
  next_run_at: '2026-08-03T04:00:00.000Z',
  ...overrides,
});
const when = instantFormat('en', 'Europe/Berlin');

describe('feedStatusOf', () => {
  it('says a new feed was never fetched, and when it runs next on the clocks given', () => {
    expect(feedStatusOf(summary(), texts.en, when)).toEqual({
      lastSuccess: 'never',
      lastError: 'none',
      nextRun: when('2026-08-03T04:00:00.000Z'),
      outcome: 'not fetched yet',
    });
    // On the zone's clocks (6:00 in Berlin), as the language writes dates.
    expect(when('2026-08-03T04:00:00.000Z')).toMatch(/^Aug 3, 2026, 6:00\sAM$/);
    expect(instantFormat('de', 'Europe/Berlin')('2026-08-03T04:00:00.000Z')).toBe('03.08.2026, 06:00');
  });

  it('words an import with its counts, and an unchanged feed', () => {
    const imported = summary({
      outcome: 'imported',
      last_success_at: '2026-08-01T04:00:00.000Z',
      http_status: 200,
      counts: { added: 12, changed: 1, unchanged: 3, withdrawn: 0 },
    });
    expect(feedStatusOf(imported, texts.en, when)).toMatchObject({
      lastError: 'none',
      outcome: 'imported: 12 new, 1 changed, 3 unchanged, 0 withdrawn',
    });
    expect(outcomeWords(imported, texts.de)).toBe('eingelesen: 12 neu, 1 geändert, 3 unverändert, 0 zurückgezogen');
    expect(outcomeWords(summary({ outcome: 'not_modified', http_status: 304 }), texts.en)).toBe(
      'unchanged since the last fetch',
    );
  });

  it('says why the last attempt failed: the HTTP status when the feed answered, else that nothing answered', () => {
    const answered = summary({ outcome: 'failed', http_status: 503, last_error: 'the feed host is unavailable' });
    expect(feedStatusOf(answered, texts.en, when)).toMatchObject({
      lastError: 'the feed answered HTTP 503: the feed host is unavailable',
      outcome: 'failed (the feed answered HTTP 503: the feed host is unavailable)',
    });
    const silent = summary({ outcome: 'failed', last_error: 'connect ECONNREFUSED 127.0.0.1:9', next_run_at: null });
    expect(feedStatusOf(silent, texts.de, when)).toMatchObject({
      lastError: 'keine Antwort: connect ECONNREFUSED 127.0.0.1:9',
      nextRun: 'nicht geplant',
    });
  });
});

describe('deliveryWords', () => {
  const delivery = (overrides: Partial<Delivery> = {}): Delivery => ({
    event_id: 'evt_1',
    type: 'meal.withdrawn',
    state: 'delivered',
    attempts: 1,
    last_status: 204,
    last_error: null,
    last_attempt_at: '2026-08-01T04:00:01.000Z',
    next_attempt_at: null,
    created_at: '2026-08-01T04:00:00.000Z',
    ...overrides,
  });

  it('says when, what, how it went, how often it was tried and when next', () => {
    expect(deliveryWords(delivery(), texts.en, when)).toBe(
      `${when('2026-08-01T04:00:00.000Z')} · meal.withdrawn · delivered · 1 attempt · HTTP 204`,
    );
    const pending = delivery({
      state: 'pending',
      attempts: 2,
      last_status: 500,
      last_error: 'the receiver answered 500',
      next_attempt_at: '2026-08-01T04:05:00.000Z',
    });
    expect(deliveryWords(pending, texts.de, when)).toBe(
      `${when('2026-08-01T04:00:00.000Z')} · meal.withdrawn · ausstehend · 2 Versuche · der Feed antwortete HTTP 500: the receiver answered 500 · nächster Versuch ${when('2026-08-01T04:05:00.000Z')}`,
    );
  });
});

describe('the texts', () => {
  it('have every text in German as well as in English, none empty', () => {
    expect(Object.keys(texts.de).sort()).toEqual(Object.keys(texts.en).sort());
    for (const language of ['en', 'de'] as const) {
      for (const [key, text] of Object.entries(texts[language])) {
        if (typeof text === 'string') expect(text.trim(), `${language}.${key}`).not.toBe('');
      }
    }
    expect(texts.de.title).not.toBe(texts.en.title);
  });
});
