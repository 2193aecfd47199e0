import type { Meal } from '@canteen-meals/domain';
import { ratingsReportColumns } from '@canteen-meals/http-contract';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { adminScope, reportsScope } from '../src/index.js';
import { useSharedTestApp } from './app-fixture.js';

// The canteen `default` (Europe/Berlin) serves meals 1 (open) and 2 (not rateable) on 2026-03-10 at 11:00 UTC, 3 on
// 2026-03-11, 4 on 2026-02-08 (app-fixture.ts); each test starts from that menu alone.
const fixture = useSharedTestApp();

const reportUrl = (query: string) => `/api/v1/admin/reports/ratings.csv?${query}`;
const wholeMenu = 'canteen=default&from=2026-02-01&to=2026-03-31';

function report(query: string, authorization: string | null = `Bearer ${fixture.token({ scope: reportsScope })}`) {
  return fixture.app.inject({
    method: 'GET',
    url: reportUrl(query),
    headers: authorization === null ? {} : { authorization },
  });
}

async function rate(sub: string, mealId: number, rating: number) {
  const response = await fixture.app.inject({
    method: 'POST',
    url: '/api/v1/rate-meal',
    headers: { authorization: `Bearer ${fixture.token({ sub })}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ meal_id: mealId, rating }),
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** Meals written straight into the store: the names a route's validation would refuse (line breaks) included. */
async function serve(...meals: Meal[]) {
  const written = await fixture.adapters.meals.upsertMany(meals);
  expect(written.ok).toBe(true);
}

const dishOf = (mealId: number) => String(fixture.adapters.db.mealDishes.get(mealId));
const errorOf = (response: LightMyRequestResponse) => [response.statusCode, response.json().error?.code];

/**
 * RFC 4180 read strictly, written apart from the server's writer: records end in CR LF (the last one too), a quoted
 * field may hold anything with its quotes doubled, and anything else (a bare CR or LF, a quote inside an unquoted
 * field, text after a closing quote) is an error. The byte order mark must come first and is taken off.
 */
function parseCsv(text: string): string[][] {
  expect(text.startsWith('\uFEFF'), 'starts with a byte order mark').toBe(true);
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let inQuotes = false;
  let closedQuote = false;
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!;
    if (inQuotes) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else {
        inQuotes = false;
        closedQuote = true;
      }
      continue;
    }
    if (c === ',' || c === '\r') {
      record.push(field);
      field = '';
      closedQuote = false;
      if (c === '\r') {
        if (text[i + 1] !== '\n') throw new Error(`a CR without LF at ${i}`);
        i++;
        records.push(record);
        record = [];
      }
      continue;
    }
    if (closedQuote) throw new Error(`text after a closing quote at ${i}`);
    if (c === '\n') throw new Error(`a bare LF at ${i}`);
    if (c === '"') {
      if (field !== '') throw new Error(`a quote inside an unquoted field at ${i}`);
      inQuotes = true;
      continue;
    }
    field += c;
  }
  if (inQuotes || field !== '' || record.length > 0) throw new Error('the last record does not end in CR LF');
  return records;
}

/** The rows of a report answer as objects by column, after checking that its header is exactly the one documented. */
function rowsOf(response: LightMyRequestResponse): Record<string, string>[] {
  expect(response.statusCode, response.body).toBe(200);
  const [header, ...rows] = parseCsv(response.body);
  expect(header).toEqual([...ratingsReportColumns]);
  for (const row of rows) expect(row).toHaveLength(ratingsReportColumns.length);
  return rows.map((row) => Object.fromEntries(ratingsReportColumns.map((column, index) => [column, row[index]!])));
}

describe('GET /api/v1/admin/reports/ratings.csv', () => {
  it('answers one row per meal in menu order, with the exact header, statistics and counts per star', async () => {
    for (const [sub, rating] of [
      ['alice', 5],
      ['bob', 4],
      ['carol', 4],
      ['dave', 1],
    ] as const)
      await rate(sub, 1, rating);

    const response = await report(wholeMenu);

    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="ratings-default-2026-02-01-2026-03-31.csv"',
    );
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.body.startsWith(`\uFEFF${ratingsReportColumns.join(',')}\r\n`)).toBe(true);
    const stars = (one: number, two: number, three: number, four: number, five: number) => ({
      stars_1: String(one),
      stars_2: String(two),
      stars_3: String(three),
      stars_4: String(four),
      stars_5: String(five),
      // None of these meals sold out.
      sold_out_at: '',
    });
    const unrated = { rating_count: '0', rating_average: '', rating_median: '', ...stars(0, 0, 0, 0, 0) };
    expect(rowsOf(response)).toEqual([
      {
        date: '2026-02-08',
        served_at: '2026-02-08T12:00:00.000Z',
        meal_id: '4',
        dish_id: dishOf(4),
        dish: 'Last month',
        name: 'Last month',
        category: '',
        ...unrated,
      },
      {
        date: '2026-03-10',
        served_at: '2026-03-10T11:00:00.000Z',
        meal_id: '1',
        dish_id: dishOf(1),
        dish: 'Open meal',
        name: 'Open meal',
        category: '',
        // (5 + 4 + 4 + 1) / 4 = 3.5; the median of 1, 4, 4, 5 is 4.
        rating_count: '4',
        rating_average: '3.5',
        rating_median: '4',
        ...stars(1, 0, 0, 2, 1),
      },
      {
        date: '2026-03-10',
        served_at: '2026-03-10T11:00:00.000Z',
        meal_id: '2',
        dish_id: dishOf(2),
        dish: 'Salad bar',
        name: 'Salad bar',
        category: '',
        ...unrated,
      },
      {
        date: '2026-03-11',
        served_at: '2026-03-11T12:00:00.000Z',
        meal_id: '3',
        dish_id: dishOf(3),
        dish: 'Tomorrow',
        name: 'Tomorrow',
        category: '',
        ...unrated,
      },
    ]);
  });

  it('rounds the average to at most 2 decimals with a dot, and gives the median of an even count as a mean', async () => {
    for (const [sub, rating] of [
      ['alice', 5],
      ['bob', 4],
      ['carol', 4],
    ] as const)
      await rate(sub, 1, rating);
    const [row] = rowsOf(await report('canteen=default&from=2026-03-10&to=2026-03-10'));
    expect(row).toMatchObject({ rating_count: '3', rating_average: '4.33', rating_median: '4' });

    await rate('dave', 1, 2);
    const [even] = rowsOf(await report('canteen=default&from=2026-03-10&to=2026-03-10'));
    // (5 + 4 + 4 + 2) / 4 = 3.75; the median of 2, 4, 4, 5 is 4.
    expect(even).toMatchObject({ rating_count: '4', rating_average: '3.75', rating_median: '4' });
    await rate('erin', 1, 2);
    await rate('frank', 1, 1);
    const [odd] = rowsOf(await report('canteen=default&from=2026-03-10&to=2026-03-10'));
    // 18 / 6 = 3; of 1, 2, 2, 4, 4, 5 the median is (2 + 4) / 2.
    expect(odd).toMatchObject({
      rating_count: '6',
      rating_average: '3',
      rating_median: '3',
      stars_1: '1',
      stars_2: '2',
      stars_3: '0',
      stars_4: '2',
      stars_5: '1',
    });
  });

  it('quotes a field holding a comma, a quote or a line break, doubling its quotes, and keeps umlauts', async () => {
    const name = 'Käsespätzle, "hausgemacht"\nmit Röstzwiebeln';
    await serve(
      { id: 10, name, servedAt: new Date('2026-03-12T11:00:00Z'), rateable: true, category: 'Menü 1, vegetarisch' },
      {
        id: 11,
        name: 'Eintopf\nmit Brot',
        servedAt: new Date('2026-03-12T11:00:00Z'),
        rateable: true,
        category: 'Ausgabe\rB',
      },
    );

    const response = await report('canteen=default&from=2026-03-12&to=2026-03-12');

    expect(response.body).toContain(`"Käsespätzle, ""hausgemacht""\nmit Röstzwiebeln","Menü 1, vegetarisch",0,`);
    expect(response.body).toContain(`,"Eintopf\nmit Brot","Ausgabe\rB",0,`);
    expect(rowsOf(response)).toEqual([
      expect.objectContaining({ meal_id: '10', dish: name, name, category: 'Menü 1, vegetarisch' }),
      expect.objectContaining({
        meal_id: '11',
        dish: 'Eintopf\nmit Brot',
        name: 'Eintopf\nmit Brot',
        category: 'Ausgabe\rB',
      }),
    ]);
    // UTF-8 on the wire: the byte order mark is EF BB BF, the ä two bytes.
    expect([...response.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(response.rawPayload.includes(Buffer.from('Käse', 'utf8'))).toBe(true);
  });

  it('puts an apostrophe wherever free text could start a formula, after a separator too, and leaves other text alone', async () => {
    // Each name, and the text the report holds for it.
    const guarded: readonly [string, string][] = [
      ['=HYPERLINK("https://evil.example","Click")', `'=HYPERLINK("https://evil.example","Click")`],
      ['+1+1', "'+1+1"],
      ['-2+3', "'-2+3"],
      ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
      ['\t=1+1', "'\t'=1+1"],
      ['\r+2+2', "'\r'+2+2"],
      // Excel splits on ";" in German, French and Italian locales: the second cell was a formula.
      ['Harmless;=1+2;', "Harmless;'=1+2;"],
      ['Harmless, =1+2', "Harmless, '=1+2"],
    ];
    const dangerous = guarded.map(([name]) => name);
    await serve(
      ...dangerous.map((name, index) => ({
        id: 20 + index,
        name,
        servedAt: new Date('2026-03-12T11:00:00Z'),
        rateable: true,
        category: '=1+2',
      })),
      {
        id: 30,
        name: 'Soup = good, 1+1',
        servedAt: new Date('2026-03-12T11:00:00Z'),
        rateable: true,
        category: "'quoted'",
      },
    );

    const response = await report('canteen=default&from=2026-03-12&to=2026-03-12');
    const rows = rowsOf(response);

    expect(rows.map((row) => [row.name, row.dish, row.category])).toEqual([
      ...guarded.map(([, text]) => [text, text, "'=1+2"]),
      ['Soup = good, 1+1', 'Soup = good, 1+1', "'quoted'"],
    ]);
    // The guard comes before the quoting: a field that needs both is quoted with the apostrophe inside.
    expect(response.body).toContain(`"'=HYPERLINK(""https://evil.example"",""Click"")"`);
    expect(response.body).toContain(`"'\r'+2+2"`);
    // Every text field is quoted, so that no app splits it on the separator of its locale.
    expect(response.body).toContain(`"Harmless;'=1+2;"`);
  });

  it("gives each meal the calendar day of its canteen's clocks, and covers exactly the days asked for on them", async () => {
    await fixture.adapters.canteens.save({
      id: 'westside',
      name: 'Westside',
      timeZone: 'America/Los_Angeles',
      city: null,
      address: null,
      coordinates: null,
      feeds: [],
    });
    // Los Angeles is 7 hours behind UTC on these days (daylight saving time began on 2026-03-08).
    await serve(
      { id: 40, name: 'Too early', servedAt: new Date('2026-03-09T06:59:59Z'), rateable: true, canteenId: 'westside' },
      { id: 41, name: 'Breakfast', servedAt: new Date('2026-03-09T07:00:00Z'), rateable: true, canteenId: 'westside' },
      {
        id: 42,
        name: 'Late dinner',
        servedAt: new Date('2026-03-10T03:00:00Z'),
        rateable: true,
        canteenId: 'westside',
      },
      { id: 43, name: 'Next day', servedAt: new Date('2026-03-10T08:00:00Z'), rateable: true, canteenId: 'westside' },
      { id: 44, name: 'Too late', servedAt: new Date('2026-03-11T07:00:00Z'), rateable: true, canteenId: 'westside' },
    );

    const rows = rowsOf(await report('canteen=westside&from=2026-03-09&to=2026-03-10'));

    expect(rows.map((row) => [row.meal_id, row.date, row.served_at])).toEqual([
      ['41', '2026-03-09', '2026-03-09T07:00:00.000Z'],
      ['42', '2026-03-09', '2026-03-10T03:00:00.000Z'],
      ['43', '2026-03-10', '2026-03-10T08:00:00.000Z'],
    ]);
    // The same instants on Berlin's clocks are other days: the default canteen's meal of 23:30 UTC is on the next one.
    await serve({ id: 45, name: 'Midnight snack', servedAt: new Date('2026-03-11T23:30:00Z'), rateable: true });
    const berlin = rowsOf(await report('canteen=default&from=2026-03-12&to=2026-03-12'));
    expect(berlin.map((row) => [row.meal_id, row.date])).toEqual([['45', '2026-03-12']]);
  });

  it('writes every row of a report larger than one chunk of the answer, once and in order', async () => {
    const meals: Meal[] = [];
    for (let day = 0; day < 3; day++) {
      for (let position = 0; position < 400; position++) {
        const id = 1000 + day * 400 + position;
        meals.push({
          id,
          name: `Meal ${id}`,
          servedAt: new Date(Date.UTC(2026, 3, 1 + day, 11)),
          rateable: true,
          position,
        });
      }
    }
    await serve(...meals);

    const rows = rowsOf(await report('canteen=default&from=2026-04-01&to=2026-04-03'));

    expect(rows.map((row) => Number(row.meal_id))).toEqual(meals.map((meal) => meal.id));
    expect(rows.map((row) => row.date)).toEqual(meals.map((meal) => meal.servedAt.toISOString().slice(0, 10)));
  });

  it('answers only the header row for days without meals', async () => {
    const response = await report('canteen=default&from=2025-01-01&to=2025-12-31');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(`\uFEFF${ratingsReportColumns.join(',')}\r\n`);
  });

  it(`accepts a token with ${reportsScope} or ${adminScope}, among other scopes too`, async () => {
    for (const scope of [reportsScope, adminScope, `openid ${reportsScope} profile`, `${adminScope} ${reportsScope}`]) {
      const response = await report(wholeMenu, `Bearer ${fixture.token({ scope })}`);
      expect([scope, response.statusCode]).toEqual([scope, 200]);
      expect(rowsOf(response)).toHaveLength(4);
    }
  });

  it('refuses a token without either scope (403), and a request without a token or with a bad one (401)', async () => {
    for (const scope of [undefined, 'meals:read', 'meals:read-reports-extra', 'profile openid']) {
      const response = await report(wholeMenu, `Bearer ${fixture.token(scope === undefined ? {} : { scope })}`);
      expect([scope, ...errorOf(response)]).toEqual([scope, 403, 'forbidden']);
      expect(response.json().error.message).toBe(
        `This route needs a token with one of the scopes ${reportsScope}, meals:manage or ${adminScope}.`,
      );
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    const anonymous = await report(wholeMenu, null);
    expect(errorOf(anonymous)).toEqual([401, 'unauthenticated']);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    expect(errorOf(await report(wholeMenu, 'Bearer not-a-token'))).toEqual([401, 'invalid_token']);
    // The scope of the report is no admin scope: it writes nothing.
    const upsert = await fixture.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/meals',
      headers: {
        authorization: `Bearer ${fixture.token({ scope: reportsScope })}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ meals: [] }),
    });
    expect(errorOf(upsert)).toEqual([403, 'forbidden']);
  });

  it('refuses a missing, malformed, impossible, reversed or too long range with 400 invalid_request', async () => {
    const refusals: [string, string | RegExp][] = [
      ['from=2026-03-01&to=2026-03-02', 'missing query parameter "canteen"'],
      ['canteen=default&to=2026-03-02', 'missing query parameter "from"'],
      ['canteen=default&from=2026-03-01', 'missing query parameter "to"'],
      ['canteen=default&from=2026-3-1&to=2026-03-02', 'query parameter "from" must be a calendar day YYYY-MM-DD'],
      ['canteen=default&from=2026-02-30&to=2026-03-02', '"2026-02-30" is not a calendar day (YYYY-MM-DD).'],
      ['canteen=default&from=2026-03-02&to=2026-03-01', '`to` must not be before `from`'],
      ['canteen=default&from=2024-01-01&to=2025-01-01', 'a report covers at most 366 days'],
      ['canteen=default&from=2025-01-01&to=2025-12-31&limit=10', 'unknown query parameter "limit"'],
    ];
    for (const [query, message] of refusals) {
      const response = await report(query);
      expect([query, response.statusCode, response.json()]).toEqual([
        query,
        400,
        { status: 'error', error: { code: 'invalid_request', message } },
      ]);
    }
    // 2024 is a leap year: its 366 days are one report.
    expect((await report('canteen=default&from=2024-01-01&to=2024-12-31')).statusCode).toBe(200);
  });

  it('refuses an unknown canteen with 404 canteen_not_found', async () => {
    expect(errorOf(await report('canteen=nowhere&from=2026-03-01&to=2026-03-31'))).toEqual([404, 'canteen_not_found']);
    expect(errorOf(await report('canteen=a%22b&from=2026-03-01&to=2026-03-31'))).toEqual([404, 'canteen_not_found']);
  });

  it('is documented as CSV for 200 and with JSON envelopes for its refusals', async () => {
    const document = (await fixture.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operation = document.paths['/api/v1/admin/reports/ratings.csv'].get;
    expect(operation.operationId).toBe('getRatingsReport');
    expect(operation.tags).toEqual(['admin']);
    expect(Object.keys(operation.responses['200'].content)).toEqual(['text/csv']);
    expect(operation.responses['200'].content['text/csv'].example.split('\r\n')[0]).toBe(
      ratingsReportColumns.join(','),
    );
    expect(Object.keys(operation.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '413',
      '429',
      '500',
      '503',
    ]);
    expect(Object.keys(operation.responses['403'].content)).toEqual(['application/json']);
    expect(operation.responses['404'].content['application/json'].schema.properties.error.properties.code.enum).toEqual(
      ['canteen_not_found'],
    );
  });
});
