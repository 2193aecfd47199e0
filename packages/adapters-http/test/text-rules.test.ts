import { readFileSync } from 'node:fs';
import { readOpenMensaFeed, writeOpenMensaFeed } from '@canteen-meals/adapters-openmensa';
import { hasNonCharacter, isBlankText, type MenuDayReading } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { adminScope, mealsFromUpsertDocument } from '../src/index.js';
import { useSharedTestApp } from './app-fixture.js';

// The text rules of meal and canteen texts at the API: bidirectional controls; noncharacters, which XML 1.0
// forbids (U+FFFE and U+FFFF went raw into openmensa.xml and made a canteen's whole export unreadable), and names of
// zero-width characters only, an invisible meal in menus, iCal and XML.
const fixture = useSharedTestApp();
const schema = readFileSync(new URL('./fixtures/open-mensa-v2.xsd', import.meta.url), 'utf8');

const bidiControls = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
const meal = (fields: Record<string, unknown>) => ({
  meal_id: 9,
  name: 'Soup',
  served_at: '2026-03-10T11:00:00Z',
  rateable: true,
  ...fields,
});

function put(url: string, body: unknown) {
  return fixture.app.inject({
    method: 'PUT',
    url,
    headers: { authorization: `Bearer ${fixture.token({ scope: adminScope })}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

/** The answers to `text` in each text field of a meal and a canteen, with the field's name as the message names it. */
async function refusals(text: string, name: string | RegExp = '"meals[0].name"') {
  return [
    [await put('/api/v1/admin/meals', { meals: [meal({ name: text })] }), name],
    [await put('/api/v1/admin/meals', { meals: [meal({ category: text })] }), '"meals[0].category"'],
    [await put('/api/v1/admin/meals', { meals: [meal({ notes: ['vegan', text] })] }), '"meals[0].notes[1]"'],
    [await put('/api/v1/admin/canteens/mensa', { name: text, timezone: 'Europe/Berlin' }), '"name"'],
    [await put('/api/v1/admin/canteens/mensa', { name: 'Mensa', timezone: 'Europe/Berlin', city: text }), '"city"'],
  ] as const;
}

describe('bidirectional controls in names', () => {
  it.each(
    bidiControls.map((control) => [`U+${control.codePointAt(0)!.toString(16).toUpperCase()}`, control]),
  )('are refused with 400 naming the field: %s', async (_name, control) => {
    // "Trojan Source": the override shows "Soup" and hides what follows it, reversed.
    const text = `Soup ${control}evil`;
    for (const [response, field] of await refusals(text)) {
      expect(response.statusCode).toBe(400);
      // The message names the field and what it allows (bidirectional controls among what it does not).
      expect(response.json().error).toEqual({
        code: 'invalid_request',
        message: expect.stringMatching(
          new RegExp(
            `^${String(field).replace(/[[\].]/g, '\\$&')} does not have the expected form: .*no bidirectional override or isolate`,
          ),
        ),
      });
    }
    expect(() => mealsFromUpsertDocument({ meals: [meal({ name: text })] })).toThrow('"meals[0].name"');
    expect(fixture.adapters.db.meals.has(9)).toBe(false);
  });

  it('are not needed for right-to-left text, which is taken as it is', async () => {
    const names = ['שניצל עם צ׳יפס', 'كبسة دجاج', 'Falafel (فلافل) mit Hummus'];
    const response = await put('/api/v1/admin/meals', {
      meals: names.map((name, index) => meal({ meal_id: 9 + index, name })),
    });
    expect(response.statusCode).toBe(200);
    expect(
      (await put('/api/v1/admin/canteens/mensa', { name: 'מנזה', timezone: 'Asia/Jerusalem' })).statusCode,
    ).toBeLessThan(300);
  });
});

describe('noncharacters in menu and canteen text', () => {
  it.each([
    ['U+FFFE', 'Soup \uFFFE'],
    ['U+FFFF', '\uFFFFSoup'],
    ['U+FDD0', 'So\uFDD0up'],
  ])('are refused with 400 naming the field: %s', async (_name, text) => {
    for (const [response, field] of await refusals(text)) {
      expect(response.statusCode, String(field)).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
      expect(response.json().error.message).toMatch(field);
    }
    expect(fixture.adapters.db.meals.has(9)).toBe(false);
  });

  it('are refused by the domain for every import (feeds, files, library users)', () => {
    expect(hasNonCharacter('Soup')).toBe(false);
    for (const text of ['Soup\uFFFE', 'Soup\uFFFF', '\uFDEFSoup']) {
      expect(hasNonCharacter(text)).toBe(true);
      expect(() => mealsFromUpsertDocument({ meals: [meal({ name: text })] })).toThrow('meals[0]');
    }
    // Beyond the basic plane they are XML characters, and left alone.
    expect(hasNonCharacter('Soup \u{1FFFE}')).toBe(false);
  });
});

describe('names that show nothing', () => {
  const invisible = ['\u200b\u200d\ufeff\u2060', '\u200c \u2061\u00ad', '\u180e\u2064\u3000'];

  it.each(
    invisible.map((text) => [JSON.stringify(text), text]),
  )('are blank and refused with 400: %s', async (_name, text) => {
    for (const [response, field] of await refusals(text, /meals\[0\]: the name/)) {
      expect(response.statusCode, String(field)).toBe(400);
      expect(response.json().error.message).toMatch(field);
    }
    expect(isBlankText(text)).toBe(true);
  });

  it('leave visible text that holds them alone (a joiner inside an emoji, a soft hyphen inside a word)', async () => {
    const names = ['Gem\u00fcse\u00adlasagne', 'Chef \u{1F468}\u200D\u{1F373} special'];
    const response = await put('/api/v1/admin/meals', {
      meals: names.map((name, index) => meal({ meal_id: 9 + index, name })),
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('the OpenMensa writer', () => {
  it('writes a readable document even from text stored before the rules refused noncharacters', async () => {
    const stored = { name: 'Mensa \uFFFE', address: null, city: 'Heidel\uFFFFberg', coordinates: null };
    const reading = {
      meal: {
        id: 1,
        name: 'Soup \uFFFE',
        servedAt: new Date('2026-03-10T11:00:00Z'),
        rateable: true,
        category: 'Suppen\uFFFF',
        notes: ['vegan\uFFFE'],
        labels: [],
        prices: {},
        canteenId: 'mensa',
        position: 0,
      },
    };
    const xml = writeOpenMensaFeed(stored, [
      { date: '2026-03-10', closed: false, meals: [reading] } as unknown as MenuDayReading,
    ]);
    expect(xml).not.toMatch(/[\uFFFE\uFFFF]/);
    const { valid, errors } = await validateXML({
      xml: [{ fileName: 'openmensa.xml', contents: xml }],
      schema: [schema],
    });
    // Well-formed: any error is the schema's (none here either), never libxml2's "Char 0xFFFE out of allowed range".
    expect(errors.map((error) => error.message).join('\n')).not.toMatch(/out of allowed range|not well-formed/i);
    expect(valid).toBe(true);
    const [day] = readOpenMensaFeed(Buffer.from(xml)).days;
    expect(day !== undefined && !day.closed ? day.items[0] : undefined).toMatchObject({
      name: 'Soup \uFFFD',
      category: 'Suppen\uFFFD',
    });
  });
});
