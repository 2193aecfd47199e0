/** A calendar day with no time zone attached, as written in ISO 8601: `2026-03-29`. */
export interface LocalDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/** Years outside this range are not menus: four digits keep parsing and formatting unambiguous. */
const firstYear = 1000;
const lastYear = 9999;

/** The day named by `YYYY-MM-DD`, or undefined when the text is not one (2026-02-30 and 2026-2-3 are not). */
export function parseLocalDate(text: string): LocalDate | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < firstYear || year > lastYear || month < 1 || month > 12) return undefined;
  if (day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

export function formatLocalDate({ year, month, day }: LocalDate): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function nextLocalDate({ year, month, day }: LocalDate): LocalDate {
  if (day < daysInMonth(year, month)) return { year, month, day: day + 1 };
  return month < 12 ? { year, month: month + 1, day: 1 } : { year: year + 1, month: 1, day: 1 };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
