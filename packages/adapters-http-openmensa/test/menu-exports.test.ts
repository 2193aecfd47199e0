import { afterEach, describe, expect, it } from 'vitest';
import { adminScope, signHmacToken } from '@canteen-meals/adapters-http';
import { academica, item, secret, today, v2App } from './v2/v2-fixture.js';

type App = Awaited<ReturnType<typeof v2App>>;
let current: App | undefined;
afterEach(() => current?.app.close());

const days = Array.from({ length: 20 }, (_, index) => `2026-03-${String(index + 10).padStart(2, '0')}`);

async function open() {
  current = await v2App({
    menus: { [academica.id]: days.map((date) => ({ date, closed: false as const, items: [item(`Meal of ${date}`)] })) },
  });
  return current;
}

const dayDates = (xml: string) => [...xml.matchAll(/<day date="([0-9-]+)">/g)].map((match) => match[1]);
const eventDates = (ics: string) => [...ics.matchAll(/DTSTART;VALUE=DATE:(\d{8})/g)].map((match) => match[1]);

describe('GET /api/v1/canteens/{id}/openmensa.xml and menu.ics', () => {
  it('cover today and 13 days after (feed), today and 6 days after (calendar) by default', async () => {
    const { get } = await open();
    expect(dayDates((await get('/api/v1/canteens/mensa-academica/openmensa.xml')).body)).toEqual(days.slice(0, 14));
    expect(eventDates((await get('/api/v1/canteens/mensa-academica/menu.ics')).body)).toEqual(
      days.slice(0, 7).map((date) => date.replaceAll('-', '')),
    );
    expect(dayDates((await get('/api/v1/canteens/mensa-academica/openmensa.xml?from=2026-03-25')).body)).toEqual(
      days.slice(15),
    );
  });

  it('take from/to for up to 31 days, and refuse more, a reversed range or a day that does not exist with 400', async () => {
    const { get } = await open();
    expect((await get('/api/v1/canteens/mensa-academica/openmensa.xml?from=2026-03-01&to=2026-03-31')).statusCode).toBe(
      200,
    );
    for (const query of [
      'from=2026-03-01&to=2026-04-01',
      'from=2026-03-12&to=2026-03-11',
      'from=2026-02-30',
      'colour=red',
    ]) {
      for (const path of ['openmensa.xml', 'menu.ics']) {
        const refused = await get(`/api/v1/canteens/mensa-academica/${path}?${query}`);
        expect([refused.statusCode, refused.json().error.code], query).toEqual([400, 'invalid_request']);
      }
    }
  });

  it('answer 404 canteen_not_found in the envelope for an unknown canteen', async () => {
    const { get } = await open();
    for (const path of ['openmensa.xml', 'menu.ics']) {
      const missing = await get(`/api/v1/canteens/nowhere/${path}`);
      expect([missing.statusCode, missing.json().error.code]).toEqual([404, 'canteen_not_found']);
    }
  });

  it("are public and cacheable: a strong ETag, the menu's Cache-Control, 304 on If-None-Match, a new tag after a change", async () => {
    const { get, app } = await open();
    for (const path of ['openmensa.xml', 'menu.ics']) {
      const url = `/api/v1/canteens/mensa-academica/${path}`;
      const first = await get(url);
      expect(first.headers['cache-control']).toBe('public, max-age=5, stale-while-revalidate=30');
      const etag = String(first.headers.etag);
      expect((await get(url, { 'if-none-match': etag, 'cache-control': 'no-cache' })).statusCode).toBe(304);
      const token = signHmacToken(secret, { sub: 'admin', scope: adminScope });
      const closed = await app.inject({
        method: 'PUT',
        url: `/api/v1/admin/canteens/mensa-academica/days/${days[3]}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ closed: path === 'openmensa.xml' }),
      });
      expect(closed.statusCode).toBe(200);
      if (path === 'openmensa.xml') expect((await get(url, { 'if-none-match': etag })).statusCode).toBe(200);
    }
  });

  it('write a closed day as <closed/> and leave it out of the calendar', async () => {
    const { get, useCases } = await open();
    await useCases.setDayClosed.execute({ canteenId: academica.id, date: days[2]!, closed: true });
    const xml = (await get('/api/v1/canteens/mensa-academica/openmensa.xml')).body;
    expect(xml).toContain(`<day date="${days[2]}">\n      <closed/>\n    </day>`);
    expect(eventDates((await get('/api/v1/canteens/mensa-academica/menu.ics')).body)).not.toContain(
      days[2]!.replaceAll('-', ''),
    );
  });

  it('escape what XML and iCalendar must', async () => {
    current = await v2App({
      canteens: [{ ...academica, name: 'Mensa "A&B" <1>; Süd, Nord' }],
      menus: {
        [academica.id]: [
          {
            date: today,
            closed: false,
            items: [item('Fish & Chips <hot>', { category: 'A "B"', notes: ['x, y; z\\'] })],
          },
        ],
      },
    });
    const xml = (await current.get('/api/v1/canteens/mensa-academica/openmensa.xml')).body;
    expect(xml).toContain('<name>Mensa &#34;A&#38;B&#34; &#60;1&#62;; Süd, Nord</name>');
    expect(xml).toContain('<category name="A &#34;B&#34;">');
    const ics = (await current.get('/api/v1/canteens/mensa-academica/menu.ics')).body;
    expect(ics).toContain('SUMMARY:Mensa "A&B" <1>\\; Süd\\, Nord');
  });
});
