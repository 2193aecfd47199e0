import { readFileSync } from 'node:fs';
import { readOpenMensaFeed } from '@canteen-meals/adapters-openmensa';
import type { MenuDay } from '@canteen-meals/domain';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { academica, v2App } from './v2-fixture.js';

// A real feed, as a public OpenMensa parser publishes it (see packages/adapters-openmensa/test/fixtures/README.md):
// seven days of the Triplex-Mensa in Heidelberg, the last two closed.
const realFeed = readFileSync(
  new URL('../../../adapters-openmensa/test/fixtures/heidelberg-triplex-feed.xml', import.meta.url),
);
const schema = readFileSync(new URL('../../../adapters-http/test/fixtures/open-mensa-v2.xsd', import.meta.url), 'utf8');
const feed = readOpenMensaFeed(realFeed);
const week = 'from=2026-08-03&to=2026-08-09';

const triplex = { ...academica, id: 'triplex', name: 'Triplex-Mensa am Uniplatz', city: 'Heidelberg', openmensaId: 42 };
const copy = { ...academica, id: 'copy', name: 'Copy', openmensaId: 43 };

let fixture: Awaited<ReturnType<typeof v2App>>;
beforeAll(async () => {
  fixture = await v2App({ canteens: [triplex, copy], menus: { triplex: feed.days } });
});
afterAll(() => fixture.app.close());

/** A day's meals as the v2 API answers them, without the serving ids. */
async function v2MealsOf(openmensaId: number, date: string) {
  const meals = (await fixture.get(`/api/v2/canteens/${openmensaId}/days/${date}/meals`)).json() as { id: number }[];
  return meals.map(({ id: _id, ...meal }) => meal);
}

/** The feed's day as the v2 API must answer it: every price as a number, whole ones included. */
function expectedMeals(day: MenuDay) {
  if (day.closed) return [];
  return day.items.map((item) => ({
    name: item.name,
    category: item.category,
    prices: {
      students: item.prices.student === undefined ? null : Number(item.prices.student),
      employees: item.prices.employee === undefined ? null : Number(item.prices.employee),
      pupils: item.prices.pupil === undefined ? null : Number(item.prices.pupil),
      others: item.prices.other === undefined ? null : Number(item.prices.other),
    },
    notes: [...item.notes],
  }));
}

describe('a real OpenMensa feed, imported, through the v2 API, the XML export and the calendar', () => {
  it('lists its days and their meals in the v2 API as the feed has them', async () => {
    const days = (await fixture.get('/api/v2/canteens/42/days?start=2026-08-03')).json();
    expect(days).toEqual(feed.days.map(({ date, closed }) => ({ date, closed })));
    for (const day of feed.days) expect(await v2MealsOf(42, day.date), day.date).toEqual(expectedMeals(day));
  });

  it('exports the menu as a feed that the OpenMensa XSD validates and that reads back as the same days', async () => {
    const response = await fixture.get(`/api/v1/canteens/triplex/openmensa.xml?${week}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    const validation = await validateXML({
      xml: [{ fileName: 'export.xml', contents: response.body }],
      schema: [{ fileName: 'open-mensa-v2.xsd', contents: schema }],
    });
    expect(validation.errors.map((error) => error.rawMessage)).toEqual([]);
    expect(validation.valid).toBe(true);
    // The validator does refuse what the schema forbids: a closed day with content.
    const broken = response.body.replace('<closed/>', '<closed>yes</closed>');
    expect(
      (
        await validateXML({
          xml: [{ fileName: 'broken.xml', contents: broken }],
          schema: [{ fileName: 'open-mensa-v2.xsd', contents: schema }],
        })
      ).valid,
    ).toBe(false);
    const exported = readOpenMensaFeed(response.body);
    expect(exported.version).toBe('2.1');
    expect(exported.canteen).toMatchObject({ name: triplex.name, city: 'Heidelberg', address: triplex.address });
    expect(exported.days).toEqual(feed.days);
  });

  it('gives the same menus when the export is imported into another canteen', async () => {
    const exported = readOpenMensaFeed((await fixture.get(`/api/v1/canteens/triplex/openmensa.xml?${week}`)).body);
    const imported = await fixture.useCases.importMenu.execute({
      source: 'copy-of-triplex',
      days: exported.days,
      rateable: true,
      canteenId: 'copy',
    });
    expect(imported.ok).toBe(true);
    expect((await fixture.get('/api/v2/canteens/43/days?start=2026-08-03')).body).toBe(
      (await fixture.get('/api/v2/canteens/42/days?start=2026-08-03')).body,
    );
    for (const { date } of feed.days) expect(await v2MealsOf(43, date)).toEqual(await v2MealsOf(42, date));
  });

  it('publishes the open days as a calendar that a maintained iCalendar parser reads: all-day events with the meals', async () => {
    const response = await fixture.get(`/api/v1/canteens/triplex/menu.ics?${week}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    for (const line of response.body.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const calendar = new ICAL.Component(ICAL.parse(response.body));
    const events = calendar.getAllSubcomponents('vevent').map((component) => new ICAL.Event(component));
    const open = feed.days.filter((day): day is Extract<MenuDay, { closed: false }> => !day.closed);
    expect(events.map((event) => event.startDate.toString())).toEqual(open.map((day) => day.date));
    expect(events.every((event) => event.startDate.isDate && event.endDate.isDate)).toBe(true);
    expect(new Set(events.map((event) => event.uid)).size).toBe(events.length);
    for (const [index, event] of events.entries()) {
      expect(event.summary).toBe(triplex.name);
      const day = open[index]!;
      for (const item of day.items) expect(event.description).toContain(`- ${item.name}`);
      expect(event.description).toContain(`${day.items[0]!.category}:`);
    }
    // The same menu, the same calendar: UIDs and stamps come from the days, so a subscriber's copy stays valid.
    expect((await fixture.get(`/api/v1/canteens/triplex/menu.ics?${week}`)).headers.etag).toBe(response.headers.etag);
  });
});
