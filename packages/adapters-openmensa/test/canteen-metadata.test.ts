import { OpenMensaFeedError, readOpenMensaFeed, type FeedProblem } from '@canteen-meals/adapters-openmensa';
import { describe, expect, it } from 'vitest';

/** A feed whose <canteen> holds `body` from line 4 on (line 1 the declaration, line 3 <canteen>). */
function feed(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<openmensa version="2.1" xmlns="http://openmensa.org/open-mensa-v2">\n<canteen>\n${body}\n</canteen>\n</openmensa>\n`;
}

const location = (latitude: string, longitude: string) => `<location latitude="${latitude}" longitude="${longitude}"/>`;
const closedDay = '<day date="2026-03-28"><closed/></day>';

function problemsOf(xml: string): readonly FeedProblem[] {
  try {
    readOpenMensaFeed(xml);
  } catch (error) {
    expect(error).toBeInstanceOf(OpenMensaFeedError);
    return (error as OpenMensaFeedError).problems;
  }
  throw new Error('the feed was accepted');
}

describe('readOpenMensaFeed: the canteen metadata', () => {
  it('accepts every element the v2 schema allows inside <canteen>, in its order, and returns name, address, city, coordinates', () => {
    const xml = feed(
      [
        '<name>Mensa Academica</name>',
        '<address>\n  Pontwall 3,\n  52062 Aachen </address>',
        '<city>Aachen</city>',
        '<phone>+49 241 80 93821</phone>',
        '<email>mensa@example.org</email>',
        location(' 50.7808 ', '6.0762'),
        '<availability>restricted</availability>',
        '<times type="opening"><monday open="11:00-14:30"/><saturday closed="true"/><sunday closed="true"/></times>',
        '<feed name="today" priority="0"><url>https://example.org/today.xml</url><schedule hour="8-14" retry="30 1"/></feed>',
        '<feed name="full"><source>https://example.org/menu</source><url>https://example.org/full.xml</url></feed>',
        closedDay,
      ].join('\n'),
    );
    const { canteen, canteenName, days } = readOpenMensaFeed(xml);

    expect(canteen).toEqual({
      name: 'Mensa Academica',
      address: 'Pontwall 3, 52062 Aachen',
      city: 'Aachen',
      coordinates: { lat: 50.7808, lng: 6.0762 },
    });
    expect(canteenName).toBe('Mensa Academica');
    expect(days).toEqual([{ date: '2026-03-28', closed: true }]);
  });

  it('answers null for every field of a feed without metadata', () => {
    const { canteen, canteenName } = readOpenMensaFeed(feed(closedDay));
    expect(canteen).toEqual({ name: null, address: null, city: null, coordinates: null });
    expect(canteenName).toBeNull();
  });

  it('answers null for metadata of white space only, and reads the fields a feed gives without the others', () => {
    const { canteen } = readOpenMensaFeed(feed(`<name> </name><city>\n</city>${location('-33.9', '-70.66')}`));
    expect(canteen).toEqual({ name: null, address: null, city: null, coordinates: { lat: -33.9, lng: -70.66 } });
  });

  it.each([
    ['the poles and the date line', '90', '-180', { lat: 90, lng: -180 }],
    ['the other pole and the other side', '-90', '180', { lat: -90, lng: 180 }],
    ['the schema exponent form', '4.941e1', '+8.7E0', { lat: 49.41, lng: 8.7 }],
  ])('accepts coordinates at %s', (_, latitude, longitude, coordinates) => {
    expect(readOpenMensaFeed(feed(location(latitude, longitude))).canteen.coordinates).toEqual(coordinates);
  });
});

describe('readOpenMensaFeed: malformed coordinates are refused with their line', () => {
  it.each([
    // [what, <location>, message]
    ['a latitude above 90', location('90.5', '8.7'), 'attribute "latitude": 90.5 is outside -90..90 degrees'],
    ['a latitude below -90', location('-91', '8.7'), 'attribute "latitude": -91 is outside -90..90 degrees'],
    ['a longitude above 180', location('49.4', '180.01'), 'attribute "longitude": 180.01 is outside -180..180 degrees'],
    ['a longitude below -180', location('49.4', '-200'), 'attribute "longitude": -200 is outside -180..180 degrees'],
    ['a decimal comma', location('49,41', '8.7'), 'attribute "latitude": "49,41" is not a decimal number of degrees'],
    [
      'degrees and minutes',
      location('49.4', "8°42'"),
      'attribute "longitude": "8°42\'" is not a decimal number of degrees',
    ],
    ['an empty latitude', location('', '8.7'), 'attribute "latitude": "" is not a decimal number of degrees'],
    ['NaN', location('NaN', '8.7'), 'attribute "latitude": "NaN" is not a decimal number of degrees'],
    [
      'an infinite longitude',
      location('49.4', '-INF'),
      'attribute "longitude": "-INF" is not a decimal number of degrees',
    ],
    [
      'a number too large for a double',
      location('1e999', '8.7'),
      'attribute "latitude": "1e999" is not a decimal number of degrees',
    ],
    ['a missing longitude', '<location latitude="49.4"/>', 'attribute "longitude" is required'],
  ])('%s', (_, locationElement, message) => {
    expect(problemsOf(feed(locationElement))).toEqual([{ line: 4, element: '<location>', message }]);
  });

  it('names both coordinates when both are wrong, and a problem of the days beside them', () => {
    const problems = problemsOf(feed(`${location('100', 'east')}\n<day date="2026-02-30"><closed/></day>`));
    expect(problems.map((problem) => [problem.line, problem.element, problem.message])).toEqual([
      [4, '<location>', 'attribute "latitude": 100 is outside -90..90 degrees'],
      [4, '<location>', 'attribute "longitude": "east" is not a decimal number of degrees'],
      [5, '<day>', 'attribute "date": "2026-02-30" is not a day of the calendar'],
    ]);
  });

  it('refuses a second <location> and metadata after the days', () => {
    expect(problemsOf(feed(`${location('1', '2')}${location('3', '4')}`))[0]?.message).toBe(
      '<location> may occur only once inside <canteen>',
    );
    expect(problemsOf(feed(`${closedDay}\n<city>Aachen</city>`))[0]).toMatchObject({ line: 5, element: '<city>' });
  });
});
