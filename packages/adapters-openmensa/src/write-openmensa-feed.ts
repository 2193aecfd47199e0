import { priceRoles, type Canteen, type MealPrices, type MenuDayReading } from '@canteen-meals/domain';
import { openMensaNamespace } from './openmensa-schema.js';

/** The category of a meal that has none: the format requires one, of 1 to 250 characters. */
export const uncategorized = 'Other';

/** The feed format written. */
export const writtenFeedVersion = '2.1';

/**
 * A canteen's menu as an OpenMensa feed v2.1 (valid against open-mensa-v2.xsd): its metadata where known, then each
 * day, closed ones as `<closed/>`, the others with their meals grouped by category (in the order each category first
 * appears in the menu), each meal with its notes and prices. Reading it back gives the same menus.
 */
export function writeOpenMensaFeed(
  canteen: Pick<Canteen, 'name' | 'address' | 'city' | 'coordinates'>,
  days: readonly MenuDayReading[],
): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<openmensa version="${writtenFeedVersion}" xmlns="${openMensaNamespace}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${openMensaNamespace} http://openmensa.org/open-mensa-v2.xsd">`,
    '  <canteen>',
    `    <name>${escape(canteen.name)}</name>`,
  ];
  if (canteen.address !== null) lines.push(`    <address>${escape(canteen.address)}</address>`);
  if (canteen.city !== null) lines.push(`    <city>${escape(canteen.city)}</city>`);
  if (canteen.coordinates !== null) {
    lines.push(`    <location latitude="${canteen.coordinates.lat}" longitude="${canteen.coordinates.lng}"/>`);
  }
  for (const day of days) lines.push(...dayLines(day));
  lines.push('  </canteen>', '</openmensa>', '');
  return lines.join('\n');
}

function dayLines(day: MenuDayReading): string[] {
  if (day.closed || day.meals.length === 0) return [`    <day date="${day.date}">`, '      <closed/>', '    </day>'];
  const categories = new Map<string, MenuDayReading['meals'][number][]>();
  for (const reading of day.meals) {
    const name = reading.meal.category ?? uncategorized;
    const meals = categories.get(name);
    if (meals === undefined) categories.set(name, [reading]);
    else meals.push(reading);
  }
  const lines = [`    <day date="${day.date}">`];
  for (const [name, meals] of categories) {
    lines.push(`      <category name="${escape(name)}">`);
    for (const { meal } of meals) {
      lines.push('        <meal>', `          <name>${escape(meal.name)}</name>`);
      for (const note of meal.notes) lines.push(`          <note>${escape(note)}</note>`);
      lines.push(...priceLines(meal.prices), '        </meal>');
    }
    lines.push('      </category>');
  }
  lines.push('    </day>');
  return lines;
}

function priceLines(prices: MealPrices): string[] {
  return priceRoles.flatMap((role) =>
    prices[role] === undefined ? [] : [`          <price role="${role}">${prices[role]}</price>`],
  );
}

/**
 * What XML 1.0's Char production leaves out (controls but tab and line breaks, U+FFFE, U+FFFF, unpaired surrogates):
 * the text rules refuse them, and the writer replaces any that older data holds, so no name can make the export
 * unreadable.
 */
const notXmlCharacter =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text and attribute values: the five XML specials, and line breaks in attributes kept as references. */
function escape(text: string): string {
  return text
    .replace(notXmlCharacter, '\uFFFD')
    .replace(/[&<>"'\n\r\t]/g, (character) => `&#${character.charCodeAt(0)};`);
}
