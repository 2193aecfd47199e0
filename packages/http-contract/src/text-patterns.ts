/**
 * Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): they reorder how the text around
 * them is shown, so a name would read as something other than what it holds ("Trojan Source", CVE-2021-42574). No
 * meal, dish or canteen name needs them: text in any script shows in its own direction without them.
 */
const bidiControls = '\\u202A-\\u202E\\u2066-\\u2069';

/** A name's pattern: no bidirectional control anywhere. */
export const withoutBidiControls = `^[^${bidiControls}]*$`;

/** A text's pattern: not blank (one character that is not white space), and no bidirectional control anywhere. */
export const visibleTextWithoutBidiControls = `^(?=[\\s\\S]*\\S)[^${bidiControls}]*$`;

export const bidiRule = 'no bidirectional override or isolate (U+202A-U+202E, U+2066-U+2069)';
