import { readFileSync } from 'node:fs';
import { readOpenMensaFeed } from '@canteen-meals/adapters-openmensa';
import { describe, expect, it } from 'vitest';

/** Feeds as real parsers publish them for OpenMensa (see fixtures/README.md): read as bytes, like an import does. */
const fixture = (name: string) => readOpenMensaFeed(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));

const itemsOf = (feed: ReturnType<typeof readOpenMensaFeed>) =>
  feed.days.flatMap((day) => (day.closed ? [] : day.items));

describe('real OpenMensa feeds: canteen metadata', () => {
  it('reads the meta feed of the Triplex-Mensa, Heidelberg: name, address, city, coordinates', () => {
    const feed = fixture('heidelberg-triplex-meta.xml');

    expect(feed.canteen).toEqual({
      name: 'Heidelberg, Triplex-Mensa am Uniplatz',
      address: 'Grabengasse 14, 69117 Heidelberg',
      city: 'Heidelberg',
      coordinates: { lat: 49.410596, lng: 8.705868 },
    });
    expect(feed.canteenName).toBe(feed.canteen.name);
    expect(feed.days).toEqual([]);
  });

  it('reads the meta feed of the Mensa Central, Stuttgart (with a phone number and two <feed>s)', () => {
    const feed = fixture('stuttgart-central-meta.xml');

    expect(feed.canteen).toEqual({
      name: 'Stuttgart Mitte, Mensa Central',
      address: 'Ossietzkystraße 3, 70174 Stuttgart',
      city: 'Stuttgart',
      coordinates: { lat: 48.7844048, lng: 9.1769449 },
    });
    expect(feed.canteenName).toBe('Stuttgart Mitte, Mensa Central');
    expect(feed.days).toEqual([]);
  });

  it('reads what the menu feeds give: the Triplex feed names its canteen, the Stuttgart feed gives no metadata', () => {
    const triplex = fixture('heidelberg-triplex-feed.xml');
    expect(triplex.canteen).toEqual({
      name: 'Heidelberg, Triplex-Mensa am Uniplatz',
      address: null,
      city: null,
      coordinates: null,
    });
    expect(triplex.canteenName).toBe('Heidelberg, Triplex-Mensa am Uniplatz');

    const stuttgart = fixture('stuttgart-central-feed.xml');
    expect(stuttgart.canteen).toEqual({ name: null, address: null, city: null, coordinates: null });
    expect(stuttgart.canteenName).toBeNull();
  });
});

describe('real OpenMensa feeds: days and meals', () => {
  it('reads the Triplex-Mensa week: 5 days of meals, a closed weekend, 31 meals', () => {
    const feed = fixture('heidelberg-triplex-feed.xml');

    expect(feed.version).toBe('2.1');
    expect(feed.days.map((day) => [day.date, day.closed])).toEqual([
      ['2026-08-03', false],
      ['2026-08-04', false],
      ['2026-08-05', false],
      ['2026-08-06', false],
      ['2026-08-07', false],
      ['2026-08-08', true],
      ['2026-08-09', true],
    ]);
    expect(feed.days.map((day) => (day.closed ? 0 : day.items.length))).toEqual([6, 6, 6, 7, 6, 0, 0]);
    const items = itemsOf(feed);
    expect(items).toHaveLength(31);
    expect(new Set(items.map((item) => item.category))).toEqual(new Set(['A', 'Pasta Box', '?']));
    expect(items[0]).toEqual({
      category: 'A',
      name: 'Tagessuppe',
      notes: ['vegetable soup'],
      prices: { student: '0.60', employee: '1.00', other: '1.50' },
    });
  });

  it('leaves out the notes of white space only that the Triplex feed publishes (one per day), keeping their meals', () => {
    const items = itemsOf(fixture('heidelberg-triplex-feed.xml'));
    const pastaBoxes = items.filter((item) => item.name === 'Pasta Box');

    expect(pastaBoxes).toHaveLength(5);
    for (const pastaBox of pastaBoxes)
      expect(pastaBox).toEqual({ category: 'Pasta Box', name: 'Pasta Box', notes: [], prices: {} });
    expect(items.flatMap((item) => item.notes)).toHaveLength(31 - 5);
  });

  it('reads the Mensa Central days: a closed Saturday, then 2 days of 10 meals in 7 categories with 87 notes', () => {
    const feed = fixture('stuttgart-central-feed.xml');

    expect(feed.days.map((day) => [day.date, day.closed, day.closed ? 0 : day.items.length])).toEqual([
      ['2026-08-08', true, 0],
      ['2026-08-10', false, 10],
      ['2026-08-11', false, 10],
    ]);
    const items = itemsOf(feed);
    expect(items).toHaveLength(20);
    expect(items.flatMap((item) => item.notes)).toHaveLength(87);
    expect(new Set(items.map((item) => item.category))).toEqual(
      new Set(['Vorspeise', 'Veganer renner', 'Hauptgericht', 'All time classics', 'Buffet', 'Beilage', 'Dessert']),
    );
    expect(items[1]).toMatchObject({
      category: 'Veganer renner',
      name: 'Tomaten-Hirse mit Haselnüssen',
      prices: { student: '2.99', employee: '5.99', other: '6.49' },
    });
    // A note over several lines is folded to one: the line breaks become spaces (the feed's em spaces stay).
    expect(items[1]?.notes).toEqual([
      'Haselnüsse',
      expect.stringMatching(/^Nährwerte pro 100 g\u2003 Brennwert: 576\.4 kj/),
      'vegan',
    ]);
  });
});
