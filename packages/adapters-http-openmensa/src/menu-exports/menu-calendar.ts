import { addDays, priceRoles, type LocalDate, type MenuDayReading, type StoredCanteen } from '@canteen-meals/domain';

/**
 * A canteen's menu as an iCalendar (RFC 5545) to subscribe to, as openmensa.org's own calendar writes it: one
 * all-day event per open day with the canteen's name as its summary and the day's meals by category, with their
 * prices and notes, as its description. Every line is stable for the same menu (UIDs and DTSTAMPs come from the
 * day), so the same menu always gives the same text and the same ETag.
 */
export function menuCalendar(canteen: StoredCanteen, days: readonly MenuDayReading[]): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//canteen-meals//menu calendar//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${text(canteen.name)}`,
  ];
  for (const day of days) {
    if (day.closed || day.meals.length === 0) continue;
    lines.push(
      'BEGIN:VEVENT',
      `UID:${canteen.id}-${day.date}@canteen-meals`,
      `DTSTAMP:${compact(day.date)}T000000Z`,
      `DTSTART;VALUE=DATE:${compact(day.date)}`,
      `DTEND;VALUE=DATE:${compact(addDays(day.date, 1))}`,
      `SUMMARY:${text(canteen.name)}`,
      `DESCRIPTION:${text(descriptionOf(day))}`,
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(folded).join('\r\n')}\r\n`;
}

/** Per category: `Category:`, then `- Meal (2.60 €, 3.50 €)` and its notes as `  * note`, a blank line after. */
function descriptionOf(day: MenuDayReading): string {
  const categories = new Map<string, string[]>();
  for (const { meal } of day.meals) {
    const category = meal.category ?? '';
    const lines = categories.get(category) ?? [];
    const prices = priceRoles.flatMap((role) => (meal.prices[role] === undefined ? [] : [`${meal.prices[role]} €`]));
    lines.push(
      `- ${meal.name}${prices.length === 0 ? '' : ` (${prices.join(', ')})`}`,
      ...meal.notes.map((note) => `  * ${note}`),
    );
    categories.set(category, lines);
  }
  return [...categories]
    .map(([category, lines]) => [...(category === '' ? [] : [`${category}:`]), ...lines, ''].join('\n'))
    .join('\n');
}

const compact = (date: LocalDate) => date.replaceAll('-', '');

/** A TEXT value: backslash, semicolon, comma and line breaks escaped. */
function text(value: string): string {
  return value.replace(/[\\;,]/g, (character) => `\\${character}`).replace(/\r\n|\r|\n/g, '\\n');
}

/** Lines longer than 75 octets folded (CRLF and a space), never inside a UTF-8 character. */
function folded(line: string): string {
  const parts: string[] = [];
  let part = '';
  let octets = 0;
  for (const character of line) {
    const size = Buffer.byteLength(character);
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(part);
      part = '';
      octets = 0;
    }
    part += character;
    octets += size;
  }
  parts.push(part);
  return parts.join('\r\n ');
}
