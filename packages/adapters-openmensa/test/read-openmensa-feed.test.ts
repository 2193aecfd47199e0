import { readFileSync } from 'node:fs';
import {
  maxElementDepth,
  maxMealsPerDay,
  maxMealsPerFeed,
  OpenMensaFeedError,
  readOpenMensaFeed,
  type FeedProblem,
} from '@canteen-meals/adapters-openmensa';
import { describe, expect, it } from 'vitest';

const sample = readFileSync(new URL('../../../examples/openmensa-feed.xml', import.meta.url));

/** A feed whose lines are numbered as written: line 1 the declaration, line 3 <canteen>, the body from line 4. */
function feed(body: string, root = '<openmensa version="2.1" xmlns="http://openmensa.org/open-mensa-v2">'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n<canteen>\n${body}\n</canteen>\n</openmensa>\n`;
}

const meal = (inner = '<name>Currywurst</name>') => `<meal>${inner}</meal>`;
const day = (inner: string, date = '2026-03-23') => `<day date="${date}">${inner}</day>`;
const category = (inner: string, name = 'Tellergericht') => `<category name="${name}">${inner}</category>`;

function problemsOf(input: string | Uint8Array): readonly FeedProblem[] {
  try {
    readOpenMensaFeed(input);
  } catch (error) {
    expect(error).toBeInstanceOf(OpenMensaFeedError);
    return (error as OpenMensaFeedError).problems;
  }
  throw new Error('the feed was accepted');
}

describe('readOpenMensaFeed: valid feeds', () => {
  it('reads the sample feed: canteen, days in order, categories, notes and prices', () => {
    const { version, canteen, canteenName, days } = readOpenMensaFeed(sample);

    expect(version).toBe('2.1');
    expect(canteen).toEqual({
      name: 'Mensa Academica',
      address: 'Pontwall 3, 52062 Aachen',
      city: 'Aachen',
      coordinates: { lat: 50.7808, lng: 6.0762 },
    });
    expect(canteenName).toBe('Mensa Academica');
    expect(days.map((d) => [d.date, d.closed])).toEqual([
      ['2026-03-23', false],
      ['2026-03-24', false],
      ['2026-03-25', false],
      ['2026-03-26', false],
      ['2026-03-27', false],
      ['2026-03-28', true],
    ]);
    const items = days.flatMap((d) => (d.closed ? [] : d.items));
    expect(items).toHaveLength(14);
    expect(new Set(items.map((item) => item.category))).toEqual(
      new Set(['Tellergericht', 'Vegetarisch', 'Klassiker', 'Dessert', 'Aktion']),
    );
    expect(items[0]).toEqual({
      category: 'Tellergericht',
      name: 'Currywurst mit Pommes frites',
      notes: ['Schwein', 'Allergene: Senf, Sellerie'],
      prices: { student: '2.60', employee: '4.10', other: '5.20' },
    });
  });

  it('reads a bare 2.0 feed without metadata, and a day without meals', () => {
    const { version, canteenName, days } = readOpenMensaFeed(
      feed(day(category(meal())), '<openmensa version="2.0" xmlns="http://openmensa.org/open-mensa-v2">'),
    );
    expect([version, canteenName]).toEqual(['2.0', null]);
    expect(days).toEqual([
      {
        date: '2026-03-23',
        closed: false,
        items: [{ category: 'Tellergericht', name: 'Currywurst', notes: [], prices: {} }],
      },
    ]);
    expect(readOpenMensaFeed(feed('')).days).toEqual([]);
  });

  it('resolves a namespace prefix, entities, character references and CDATA; folds white space', () => {
    const xml = `<om:openmensa version="2.1" xmlns:om="http://openmensa.org/open-mensa-v2"><om:canteen>
      <om:day date="2026-03-23"><om:category name="Pasta &amp; Co">
        <om:meal><om:name>
          Spaghetti &#8222;Carbonara&#8220;
          mit <![CDATA[<Speck>]]></om:name><om:note>Schwein</om:note>
          <om:price role="student"> 2.6 </om:price><om:price role="other">3E0</om:price></om:meal>
      </om:category></om:day></om:canteen></om:openmensa>`;
    const [first] = readOpenMensaFeed(xml).days;
    expect(first).toEqual({
      date: '2026-03-23',
      closed: false,
      items: [
        {
          category: 'Pasta & Co',
          name: 'Spaghetti „Carbonara“ mit <Speck>',
          notes: ['Schwein'],
          prices: { student: '2.60', other: '3.00' },
        },
      ],
    });
  });

  it('leaves out a note of white space only (the schema allows it; real feeds publish it), keeping the meal', () => {
    const [first] = readOpenMensaFeed(
      feed(day(category(meal('<name>Pasta Box</name><note>\n\n</note><note> vegan </note>')))),
    ).days;
    expect(first).toEqual({
      date: '2026-03-23',
      closed: false,
      items: [{ category: 'Tellergericht', name: 'Pasta Box', notes: ['vegan'], prices: {} }],
    });
  });

  it('decodes an ISO-8859-1 feed by its declaration, and skips a byte order mark', () => {
    const latin1 = Buffer.from(
      feed(day(category(meal('<name>Käsespätzle</name>')))).replace('UTF-8', 'ISO-8859-1'),
      'latin1',
    );
    const [first] = readOpenMensaFeed(latin1).days;
    expect(first?.closed === false && first.items[0]?.name).toBe('Käsespätzle');

    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(feed(''))]);
    expect(readOpenMensaFeed(withBom).days).toEqual([]);
  });

  it('accepts the xsi attributes and a <version> element of the feed generator', () => {
    const root =
      '<openmensa version="2.1" xmlns="http://openmensa.org/open-mensa-v2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://openmensa.org/open-mensa-v2 http://openmensa.org/open-mensa-v2.xsd">';
    const xml = `<?xml version="1.0"?>\n${root}<version>parser 1.4</version><canteen/></openmensa>`;
    expect(readOpenMensaFeed(xml).days).toEqual([]);
  });
});

describe('readOpenMensaFeed: every kind of invalid feed is refused with its line and element', () => {
  it.each([
    // [what, feed, line, element, message]
    [
      'an unclosed element',
      feed(day(category('<meal><name>Currywurst</name>'))),
      4,
      undefined,
      /malformed XML.*unexpected close tag/,
    ],
    [
      'an undefined entity',
      feed(day(category(meal('<name>Pommes&nbsp;rot-weiß</name>')))),
      4,
      undefined,
      /malformed XML.*undefined entity/,
    ],
    ['text after the root', `${feed('')}trailing`, 7, undefined, /malformed XML/],
    ['an empty file', '', 1, undefined, /malformed XML|no XML element/],
    [
      'a DOCTYPE',
      `<?xml version="1.0"?>\n<!DOCTYPE openmensa [<!ENTITY x "y">]>\n${feed('').split('\n').slice(1).join('\n')}`,
      2,
      undefined,
      /DOCTYPE is not allowed/,
    ],
    [
      'a wrong root element',
      '<?xml version="1.0"?>\n<menu xmlns="http://openmensa.org/open-mensa-v2"/>',
      2,
      '<menu>',
      /root element must be <openmensa>/,
    ],
    [
      'the v1 namespace',
      feed('', '<openmensa version="2.1" xmlns="http://openmensa.org/open-mensa-v1">'),
      2,
      '<openmensa>',
      /namespace "http:\/\/openmensa.org\/open-mensa-v2", not <openmensa> in namespace "http:\/\/openmensa.org\/open-mensa-v1"/,
    ],
    ['no namespace', feed('', '<openmensa version="2.1">'), 2, '<openmensa>', /not <openmensa> without a namespace/],
    [
      'version 1.0',
      feed('', '<openmensa version="1.0" xmlns="http://openmensa.org/open-mensa-v2">'),
      2,
      '<openmensa>',
      /version "1.0" is not 2.0 or 2.1/,
    ],
    [
      'no version',
      feed('', '<openmensa xmlns="http://openmensa.org/open-mensa-v2">'),
      2,
      '<openmensa>',
      /attribute "version" is required/,
    ],
    [
      'no canteen',
      '<?xml version="1.0"?>\n<openmensa version="2.1" xmlns="http://openmensa.org/open-mensa-v2">\n</openmensa>',
      2,
      '<openmensa>',
      /missing <canteen>/,
    ],
    ['a day without a date', feed('<day><closed/></day>'), 4, '<day>', /attribute "date" is required/],
    [
      'a date in another format',
      feed(day('<closed/>', '23.03.2026')),
      4,
      '<day>',
      /"23.03.2026" does not have the form YYYY-MM-DD/,
    ],
    [
      'a date not in the calendar',
      feed(day('<closed/>', '2026-02-30')),
      4,
      '<day>',
      /"2026-02-30" is not a day of the calendar/,
    ],
    [
      'a day listed twice',
      feed(`${day('<closed/>')}\n${day('<closed/>')}`),
      5,
      '<day>',
      /day 2026-03-23 is listed twice \(first on line 4\)/,
    ],
    ['an empty day', feed(day('')), 4, '<day>', /needs one of: <category>, <closed>/],
    [
      'a day both closed and open',
      feed(day(`<closed/>${category(meal())}`)),
      4,
      '<category>',
      /cannot stand beside <closed>/,
    ],
    ['text in a closed day', feed(day('<closed>Ostern</closed>')), 4, '<closed>', /must be empty, not "Ostern"/],
    [
      'a category without a name',
      feed(day(`<category>${meal()}</category>`)),
      4,
      '<category>',
      /attribute "name" is required/,
    ],
    ['a category without meals', feed(day(category(''))), 4, '<category>', /missing <meal>/],
    [
      'a category name of 251 characters',
      feed(day(category(meal(), 'x'.repeat(251)))),
      4,
      '<category>',
      /must have 1 to 250 characters \(has 251\)/,
    ],
    ['a meal without a name', feed(day(category(meal('<note>vegan</note>')))), 4, '<meal>', /missing <name>/],
    [
      'a meal name of 251 characters',
      feed(day(category(meal(`<name>${'x'.repeat(251)}</name>`)))),
      4,
      '<name>',
      /has 251/,
    ],
    [
      'a meal name of white space',
      feed(day(category(meal('<name>   </name>')))),
      4,
      '<name>',
      /the meal name is only white space/,
    ],
    // An invisible meal in menus, iCal and XML.
    [
      'a meal name of zero-width characters',
      feed(day(category(meal('<name>\u200b\u200d\ufeff\u2060</name>')))),
      4,
      '<name>',
      /the meal name is only white space or invisible characters/,
    ],
    [
      'an empty note',
      feed(day(category(meal('<name>A</name><note></note>')))),
      4,
      '<note>',
      /must have 1 to 250 characters \(has 0\)/,
    ],
    [
      'an unknown element',
      feed(day(category(meal('<name>A</name><allergen>Gluten</allergen>')))),
      4,
      '<allergen>',
      /<allergen> is not allowed inside <meal> \(allowed: <name>, <note>, <price>\)/,
    ],
    [
      'an element of another namespace',
      feed(day(category(meal('<name>A</name><x:tag xmlns:x="urn:x"/>')))),
      4,
      '<x:tag>',
      /in namespace "urn:x" is not an OpenMensa element/,
    ],
    [
      'elements out of order',
      feed(day(category(meal('<name>A</name><price role="student">2.60</price><note>vegan</note>')))),
      4,
      '<note>',
      /out of order: inside <meal> the order is <name>, <note>, <price>/,
    ],
    [
      'two names',
      feed(day(category(meal('<name>A</name><name>B</name>')))),
      4,
      '<name>',
      /may occur only once inside <meal>/,
    ],
    [
      'text inside a meal',
      feed(day(category(meal('<name>A</name> lecker')))),
      4,
      '<meal>',
      /text is not allowed directly inside <meal>/,
    ],
    [
      'an unknown attribute',
      feed(day(category('<meal id="7"><name>A</name></meal>'))),
      4,
      '<meal>',
      /attribute "id" is not allowed/,
    ],
    [
      'a price without a role',
      feed(day(category(meal('<name>A</name><price>2.60</price>')))),
      4,
      '<price>',
      /attribute "role" is required/,
    ],
    [
      'an unknown price role',
      feed(day(category(meal('<name>A</name><price role="guest">2.60</price>')))),
      4,
      '<price>',
      /"guest" is not one of pupil, student, employee, other/,
    ],
    [
      'a price that is not a number',
      feed(day(category(meal('<name>A</name><price role="student">2,60 €</price>')))),
      4,
      '<price>',
      /"2,60 €" is not a number/,
    ],
    [
      'a negative price',
      feed(day(category(meal('<name>A</name><price role="student">-2.60</price>')))),
      4,
      '<price>',
      /"-2.60" is not a price this service can store/,
    ],
    [
      'two prices of one role',
      feed(day(category(meal('<name>A</name><price role="student">2.60</price><price role="student">2.80</price>')))),
      4,
      '<price>',
      /a second student price for "A"/,
    ],
    [
      'metadata out of order',
      feed('<city>Aachen</city><name>Mensa</name>'),
      4,
      '<name>',
      /out of order: inside <canteen>/,
    ],
    [
      'a feed element without its url',
      feed('<feed name="today"><source>x</source></feed>'),
      4,
      '<feed>',
      /missing <url>/,
    ],
    [
      'an opening time of another form',
      feed('<times type="opening"><monday open="11-14"/></times>'),
      4,
      '<monday>',
      /"11-14" does not have the form HH:MM-HH:MM/,
    ],
  ] as [string, string, number, string | undefined, RegExp][])('%s', (_, xml, line, element, message) => {
    const problems = problemsOf(xml);
    expect(problems[0]).toMatchObject({ line, ...(element === undefined ? {} : { element }) });
    expect(problems[0]?.message).toMatch(message);
  });

  it('refuses bytes that are not valid UTF-8, naming the line', () => {
    const bytes = Buffer.concat([
      Buffer.from(feed('').slice(0, 60)),
      Buffer.from([0xc3, 0x28]),
      Buffer.from(feed('').slice(60)),
    ]);
    expect(problemsOf(bytes)[0]).toMatchObject({ line: 2, message: 'the file is not valid utf-8' });
  });

  it('refuses an encoding it does not know', () => {
    const bytes = Buffer.from(feed('').replace('UTF-8', 'EBCDIC-XY'));
    expect(problemsOf(bytes)[0]?.message).toMatch(/unknown encoding "ebcdic-xy"/);
  });

  it('names every problem of a feed at once, each with its line, in one message', () => {
    const xml = feed(
      [
        day(category(meal('<name>A</name><price role="guest">1</price>'))),
        day('<closed/>', '2026-13-01'),
        '<day date="2026-03-25"><category name="X"/></day>',
      ].join('\n'),
    );
    let error: OpenMensaFeedError | undefined;
    try {
      readOpenMensaFeed(xml);
    } catch (caught) {
      error = caught as OpenMensaFeedError;
    }
    expect(error?.problems.map((problem) => problem.line)).toEqual([4, 5, 6]);
    expect(error?.message).toMatch(/^not a valid OpenMensa v2 feed:\n {2}line 4, <price>: attribute "role"/);
    expect(error?.message).toContain('line 5, <day>: attribute "date": "2026-13-01" is not a day of the calendar');
    expect(error?.message).toContain('line 6, <category>: missing <meal>');
  });
});

describe('readOpenMensaFeed: meal counts', () => {
  const meals = (count: number) =>
    category(Array.from({ length: count }, (_, i) => meal(`<name>Meal ${i}</name>`)).join(''));

  it(`takes ${maxMealsPerDay} meals on a day and refuses one more, naming the day`, () => {
    expect(readOpenMensaFeed(feed(day(meals(maxMealsPerDay)))).days[0]).toMatchObject({ closed: false });
    expect(problemsOf(feed(day(meals(maxMealsPerDay + 1))))).toEqual([
      expect.objectContaining({
        element: '<day>',
        message: `day 2026-03-23 lists ${maxMealsPerDay + 1} meals; at most ${maxMealsPerDay} are taken`,
      }),
    ]);
  });

  it(`refuses a feed of more than ${maxMealsPerFeed} meals in all`, () => {
    const perDay = maxMealsPerDay;
    const days = Array.from({ length: maxMealsPerFeed / perDay + 1 }, (_, i) =>
      day(meals(perDay), new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10)),
    );
    expect(problemsOf(feed(days.join('')))).toEqual([
      expect.objectContaining({
        element: '<canteen>',
        message: `the feed lists ${maxMealsPerFeed + perDay} meals; at most ${maxMealsPerFeed} are taken`,
      }),
    ]);
  });
});

describe('readOpenMensaFeed: nesting depth', () => {
  /** A valid feed whose first meal's name holds elements nested to `depth` in all (the name itself is level 6). */
  const nested = (depth: number) =>
    feed(day(category(meal(`<name>${'<x>'.repeat(depth - 6)}Soup${'</x>'.repeat(depth - 6)}</name>`))));
  const tooDeep = `elements are nested more than ${maxElementDepth} deep (an OpenMensa feed needs 6): refused as hostile`;

  it(`reads a document ${maxElementDepth} deep as far as its schema (no depth error), and refuses one level more`, () => {
    expect(problemsOf(nested(maxElementDepth)).map(({ message }) => message)).not.toContain(tooDeep);
    expect(problemsOf(nested(maxElementDepth + 1))).toEqual([{ line: 4, message: tooDeep }]);
  });

  // Before the bound, 40 000 levels held the thread for about a minute (docs/reliability.md).
  it.each([
    40_000, 400_000,
  ])('refuses a document %i elements deep with the depth error, before reading it whole', (depth) => {
    const deep = `<?xml version="1.0"?>\n<openmensa version="2.1" xmlns="http://openmensa.org/open-mensa-v2">${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</openmensa>`;
    expect(problemsOf(deep)).toEqual([{ line: 2, message: tooDeep }]);
    expect(problemsOf(new TextEncoder().encode(deep))).toEqual([{ line: 2, message: tooDeep }]);
  });
});

describe('readOpenMensaFeed: problems quote the feed within bounds', () => {
  it('cuts a 4 MB attribute value in the message to 80 characters, saying how much was left out', () => {
    const huge = 'A'.repeat(4 * 1024 * 1024);
    let error: OpenMensaFeedError | undefined;
    try {
      readOpenMensaFeed(feed(day(category(meal(`<name>A</name><price role="${huge}">2.60</price>`)))));
    } catch (caught) {
      error = caught as OpenMensaFeedError;
    }
    expect(error?.problems[0]?.message).toBe(
      `attribute "role": "${'A'.repeat(80)}… (${huge.length - 80} more characters)" is not one of pupil, student, employee, other`,
    );
    expect(error!.message.length).toBeLessThan(500);
  });

  it('cuts an element name of any length too', () => {
    const name = `x${'y'.repeat(100_000)}`;
    const problems = problemsOf(feed(day(category(meal(`<name>A</name><${name}/>`)))));
    expect(problems[0]!.element!.length).toBeLessThan(150);
    expect(problems[0]!.message.length).toBeLessThanOrEqual(400 + 40);
  });
});
