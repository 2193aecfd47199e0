import { labelVocabulary } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { useSharedTestApp } from './app-fixture.js';

const fixture = useSharedTestApp();

describe('GET /api/v1/labels', () => {
  it('answers the whole vocabulary without a token: code, kind, parent, German and English names', async () => {
    const response = await fixture.app.inject({ method: 'GET', url: '/api/v1/labels' });
    expect(response.statusCode).toBe(200);
    const { labels } = response.json().data as {
      labels: Array<{ code: string; kind: string; parent: string | null; name: { de: string; en: string } }>;
    };
    expect(labels).toHaveLength(labelVocabulary.length);
    expect(labels.find((label) => label.code === 'wheat')).toEqual({
      code: 'wheat',
      kind: 'allergen',
      parent: 'gluten',
      name: { de: 'Weizen', en: 'Wheat' },
    });
    expect(labels.find((label) => label.code === 'colourant')).toMatchObject({
      kind: 'additive',
      parent: null,
      name: { de: 'mit Farbstoff' },
    });
  });

  it('is cacheable by shared caches, with a strong ETag that answers 304', async () => {
    const first = await fixture.app.inject({ method: 'GET', url: '/api/v1/labels' });
    expect(first.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fixture.app.inject({
      method: 'GET',
      url: '/api/v1/labels',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });
});
