import { withMealDetails, type RatingHistogram } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';
import { csvLine, quoted, textField } from '../src/reports/csv.js';
import { ratingsCsvChunks, ratingsCsvFields } from '../src/reports/ratings-csv.js';

const rowWith = (distribution: RatingHistogram, name = 'Soup', soldOutAt: Date | null = null) => ({
  date: '2026-03-10',
  meal: withMealDetails({ id: 7, name, servedAt: new Date('2026-03-10T11:00:00Z'), rateable: true }),
  dish: { id: 3, name },
  statistics: { count: 0, average: null, median: null },
  distribution,
  soldOutAt,
});

describe('the CSV of the ratings report', () => {
  it('quotes exactly the fields holding a comma, a quote, CR or LF, doubling the quotes', () => {
    expect(['plain', 'a,b', 'say "hi"', 'a\rb', 'a\nb', '', 'tab\there'].map(quoted)).toEqual([
      'plain',
      '"a,b"',
      '"say ""hi"""',
      '"a\rb"',
      '"a\nb"',
      '',
      'tab\there',
    ]);
    expect(csvLine(['a', '"b"', ''])).toBe('a,"b",\r\n');
  });

  it('quotes every free text, and puts an apostrophe before it where it starts like a formula', () => {
    expect(
      ['=1+1', '+1', '-1', '@A1', '\t=1', '\r=1', "'=1", ' =1', 'a=1', 'plain', 'say "hi"', null].map(textField),
    ).toEqual([
      `"'=1+1"`,
      `"'+1"`,
      `"'-1"`,
      `"'@A1"`,
      `"'\t'=1"`,
      `"'\r'=1"`,
      `"'=1"`,
      '" =1"',
      '"a=1"',
      '"plain"',
      '"say ""hi"""',
      '',
    ]);
  });

  it('puts an apostrophe before a formula after any separator a spreadsheet may split on: comma, semicolon, tab, line break', () => {
    expect(
      ['Harmless;=1+2;', 'Harmless,=1+2', 'a;  +1', 'a\t@SUM(A1)', 'a\n-1', 'a; b=1', 'Chili - hot', 'a;b'].map(
        textField,
      ),
    ).toEqual([
      `"Harmless;'=1+2;"`,
      `"Harmless,'=1+2"`,
      `"a;  '+1"`,
      `"a\t'@SUM(A1)"`,
      `"a\n'-1"`,
      '"a; b=1"',
      '"Chili - hot"',
      '"a;b"',
    ]);
  });

  it('rounds the average half up to at most 2 decimals from the counts, as binary fractions would not', () => {
    const average = (distribution: RatingHistogram) => ratingsCsvFields(rowWith(distribution))[8];
    // 41 / 40 = 1.025: the nearest double is below it, and 1.025 * 100 rounds to 102.
    expect(average([39, 1, 0, 0, 0])).toBe('1.03');
    expect(average([0, 0, 0, 2, 1])).toBe('4.33');
    expect(average([0, 0, 0, 1, 1])).toBe('4.5');
    expect(average([0, 0, 0, 0, 3])).toBe('5');
    expect(average([0, 0, 0, 0, 0])).toBe('');
  });

  it('appends the instant a meal sold out as the last column, empty for a meal that has not', () => {
    const soldOut = ratingsCsvFields(rowWith([0, 0, 0, 0, 0], 'Soup', new Date('2026-03-10T12:40:00Z')));
    expect(soldOut).toHaveLength(16);
    expect(soldOut[15]).toBe('2026-03-10T12:40:00.000Z');
    expect(ratingsCsvFields(rowWith([0, 0, 0, 0, 0]))[15]).toBe('');
  });

  it('starts with the byte order mark and the header, and writes each row once across chunks', async () => {
    const rows = Array.from({ length: 1001 }, (_, index) => rowWith([0, 0, 0, 0, 0], `Meal ${index}`));
    const chunks = await collect(ratingsCsvChunks(toAsync(rows)));
    expect(chunks).toHaveLength(3);
    const lines = chunks.join('').split('\r\n');
    expect(lines[0]).toBe(
      '\uFEFFdate,served_at,meal_id,dish_id,dish,name,category,rating_count,rating_average,rating_median,stars_1,stars_2,stars_3,stars_4,stars_5,sold_out_at',
    );
    expect(lines.slice(1, -1).map((line) => line.split(',')[5])).toEqual(rows.map((row) => `"${row.meal.name}"`));
    expect(lines.at(-1)).toBe('');
    expect(await collect(ratingsCsvChunks(toAsync([])))).toEqual([`${lines[0]}\r\n`]);
  });
});

async function* toAsync<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

/** Array.fromAsync, which Node 20 lacks. */
async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}
