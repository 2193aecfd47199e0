// Neither can be stored as text faithfully: SQLite's length() stops at a NUL (so a leading one broke the CHECK: a
// 500), an unpaired surrogate has no UTF-8 form (it was stored mangled), and PostgreSQL refuses both in TEXT.
const unstorableAsText = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when every adapter can store and give back the string unchanged: no NUL, no unpaired surrogate. */
export function isStorableText(value: string): boolean {
  return !unstorableAsText.test(value);
}

// Control characters (Unicode Cc: C0, DEL and C1) have no place in menu text: they are invisible or break a line in
// an app, and a C1 character is the mark of a Windows-1252 feed read as Latin-1 (U+0096 for an en dash).
const controlCharacter = /[\u0000-\u001F\u007F-\u009F]/;

/** True when the text holds a control character (U+0000-U+001F, U+007F-U+009F). */
export function hasControlCharacter(value: string): boolean {
  return controlCharacter.test(value);
}

// What renders as nothing: Unicode White_Space, the zero-width characters (ZWSP, ZWNJ, ZWJ, word joiner, the
// invisible operators U+2061-U+2064, the BOM), the Mongolian vowel separator and the soft hyphen.
const invisibleCharacters = '\\p{White_Space}\\u00AD\\u180E\\u200B-\\u200D\\u2060-\\u2064\\uFEFF';
const blankText = new RegExp(`^[${invisibleCharacters}]*$`, 'u');

/** True when nothing of the text would show: empty, or white space and invisible characters only. */
export function isBlankText(value: string): boolean {
  return blankText.test(value);
}

// XML 1.0 forbids U+FFFE and U+FFFF in a document, so one of them in a name made a canteen's whole OpenMensa export
// unreadable; the other noncharacters of the plane (U+FDD0-U+FDEF) are never meant for interchange either.
const nonCharacter = /[\uFDD0-\uFDEF\uFFFE\uFFFF]/;

/** True when the text holds a noncharacter of the basic plane (U+FDD0-U+FDEF, U+FFFE, U+FFFF). */
export function hasNonCharacter(value: string): boolean {
  return nonCharacter.test(value);
}

/**
 * A text field of a meal or a canteen: not blank (nor invisible), at most `max` characters (Unicode code points, as
 * SQL and JSON Schema count them), no control character, no noncharacter, and storable as text (no unpaired
 * surrogate).
 */
export function isTextField(value: unknown, max: number): value is string {
  return (
    typeof value === 'string' &&
    !isBlankText(value) &&
    [...value].length <= max &&
    !hasControlCharacter(value) &&
    !hasNonCharacter(value) &&
    isStorableText(value)
  );
}
