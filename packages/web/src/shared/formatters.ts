// Intl formatters are costly to make and cheap to use: one per language, zone and options, made on first use and kept
// (a menu renders hundreds of dates and prices; making them anew each time was the app's longest task).
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

export function dateFormat(language: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language ?? ''}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (format === undefined) dateFormats.set(key, (format = new Intl.DateTimeFormat(language, options)));
  return format;
}

export function numberFormat(language: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${language}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (format === undefined) numberFormats.set(key, (format = new Intl.NumberFormat(language, options)));
  return format;
}
