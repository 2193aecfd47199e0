import { describe, expect, it } from 'vitest';
import { adminScope, mealsFromUpsertDocument } from '../src/index.js';
import { useSharedTestApp } from './app-fixture.js';

const fixture = useSharedTestApp();

const bidiControls = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
const meal = (fields: Record<string, unknown>) => ({ meal_id: 9, name: 'Soup', served_at: '2026-03-10T11:00:00Z', rateable: true, ...fields });

function put(url: string, body: unknown) {
  return fixture.app.inject({
    method: 'PUT',
    url,
    headers: { authorization: `Bearer ${fixture.token({ scope: adminScope })}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

describe('bidirectional controls in names', () => {
  it.each(bidiControls.map((control) => [`U+${control.codePointAt(0)!.toString(16).toUpperCase()}`, control]))(
    'are refused with 400 naming the field: %s',
    async (_name, control) => {
      // "Trojan Source": the override shows "Soup" and hides what follows it, reversed.
      const text = `Soup ${control}evil`;
      const refusals = [
        [await put('/api/v1/admin/meals', { meals: [meal({ name: text })] }), '"meals[0].name"'],
        [await put('/api/v1/admin/meals', { meals: [meal({ category: text })] }), '"meals[0].category"'],
        [await put('/api/v1/admin/meals', { meals: [meal({ notes: ['vegan', text] })] }), '"meals[0].notes[1]"'],
        [await put('/api/v1/admin/canteens/mensa', { name: text, timezone: 'Europe/Berlin' }), '"name"'],
        [await put('/api/v1/admin/canteens/mensa', { name: 'Mensa', timezone: 'Europe/Berlin', city: text }), '"city"'],
      ] as const;
      for (const [response, field] of refusals) {
        expect(response.statusCode).toBe(400);
        // The message names the field and what it allows (bidirectional controls among what it does not).
        expect(response.json().error).toEqual({
          code: 'invalid_request',
          message: expect.stringMatching(new RegExp(`^${field.replace(/[[\].]/g, '\\$&')} does not have the expected form: .*no bidirectional override or isolate`)),
        });
      }
      expect(() => mealsFromUpsertDocument({ meals: [meal({ name: text })] })).toThrow('"meals[0].name"');
      expect(fixture.adapters.db.meals.has(9)).toBe(false);
    },
  );

  it('are not needed for right-to-left text, which is taken as it is', async () => {
    const names = ['שניצל עם צ׳יפס', 'كبسة دجاج', 'Falafel (فلافل) mit Hummus'];
    const response = await put('/api/v1/admin/meals', { meals: names.map((name, index) => meal({ meal_id: 9 + index, name })) });
    expect(response.statusCode).toBe(200);
    expect((await put('/api/v1/admin/canteens/mensa', { name: 'מנזה', timezone: 'Asia/Jerusalem' })).statusCode).toBeLessThan(300);
  });
});
