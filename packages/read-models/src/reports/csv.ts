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
 * Where a spreadsheet app may start a formula (CSV or formula injection): at the start of a field, and after any
 * separator an app may split on when it reads the file: the comma, the semicolon (Excel's list separator in German,
 * French and Italian locales: `Harmless;=1+2;` became a formula cell), a tab or a line break, spaces between. A
 * formula starts with `=`, `+`, `-`, `@`, or a tab or carriage return before one of them.
 */
const formulaAfterSeparator = /([,;\t\r\n] *)(?=[=+\-@\t\r])/g;
const formulaAtStart = /^(?=[=+\-@\t\r])/;

/** A field as RFC 4180 writes it: in quotes, each quote doubled, when it holds a separator, a quote, CR or LF. */
export function quoted(value: string): string {
  return needsQuotes.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A field of free text (a name, a category: whatever a menu or an admin wrote), always in quotes, so that no app
 * splits it on a separator of its locale; and wherever a spreadsheet could start a formula in it, a `'` goes first
 * (OWASP's advice: shown as text, never evaluated; the apostrophe itself stays visible in most apps). Not for numbers
 * and dates that the report makes itself. Null is the empty field.
 */
export function textField(value: string | null): string {
  if (value === null) return '';
  // The separators first: a field that starts with a tab is guarded both before it and after it.
  const guarded = value.replace(formulaAfterSeparator, "$1'").replace(formulaAtStart, "'");
  return `"${guarded.replaceAll('"', '""')}"`;
}

/** One record: its fields, separated by commas, and the line end. */
export function csvLine(fields: readonly string[]): string {
  return fields.join(',') + lineEnd;
}
