// RFC 4180 CSV, written by hand rather than with a library (csv-stringify is the well-kept one of the Node world):
// the quoting rule is the few lines below, the guard against formulas has to be ours in any case (it depends on which
// fields are free text), and the rows are made in one pass into chunks that the route streams, which a stringifier
// stream would only wrap. No dependency to keep up for it, in a package that the server ships.

/**
 * The byte order mark that starts the text: UTF-8 without it is read as the local 8-bit code page by some spreadsheet
 * apps (Excel on Windows among them), which turns "Käsespätzle" into "KÃ¤sespÃ¤tzle". Parsers that follow RFC 4180
 * to the letter see it as part of the first header name; those of spreadsheets and most libraries skip it.
 */
export const byteOrderMark = '\uFEFF';

/** RFC 4180: lines end in CR LF, the last one too. */
export const lineEnd = '\r\n';

/** What makes a field need quotes: the separator, a quote, or a line break. */
const needsQuotes = /[",\r\n]/;

/**
 * What a spreadsheet app may take as the start of a formula (CSV or formula injection): `=SUM(...)`, `+`, `-`, `@`,
 * and a tab or carriage return before one of them.
 */
const formulaStart = /^[=+\-@\t\r]/;

/** A field as RFC 4180 writes it: in quotes, each quote doubled, when it holds a separator, a quote, CR or LF. */
export function quoted(value: string): string {
  return needsQuotes.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A field of free text (a name, a category: whatever a menu or an admin wrote): one that a spreadsheet could run as a
 * formula starts with a `'` (OWASP's advice: shown as text, never evaluated; the apostrophe itself stays visible in
 * most apps), then quoted as any field. Not for numbers and dates that the report makes itself.
 */
export function textField(value: string | null): string {
  if (value === null) return '';
  return quoted(formulaStart.test(value) ? `'${value}` : value);
}

/** One record: its fields, separated by commas, and the line end. */
export function csvLine(fields: readonly string[]): string {
  return fields.join(',') + lineEnd;
}
