/** A calendar day as written in ISO 8601, "YYYY-MM-DD", without a time zone. */
export type LocalDate = string;

/** True for a real calendar day: "2024-02-29" is one; "2025-02-29", "2025-13-01" and "2025-2-1" are not. */
export function isLocalDate(value: string): value is LocalDate {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const lastOfMonth = new Date(0);
  lastOfMonth.setUTCFullYear(year, month, 0);
  return day <= lastOfMonth.getUTCDate();
}
