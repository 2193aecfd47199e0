/**
 * Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): they reorder how the text around
 * them is shown, so a name would read as something other than what it holds ("Trojan Source", CVE-2021-42574). No
 * meal, dish or canteen name needs them: text in any script shows in its own direction without them.
 */
const bidiControls = '\\u202A-\\u202E\\u2066-\\u2069';

/** Noncharacters of the basic plane: XML 1.0 forbids U+FFFE and U+FFFF (the OpenMensa export is XML). */
const nonCharacters = '\\uFDD0-\\uFDEF\\uFFFE\\uFFFF';

/**
 * What renders as nothing besides white space: zero-width characters, invisible operators, soft hyphen (as the domain).
 */
const invisible = '\\s\\u00AD\\u180E\\u200B-\\u200D\\u2060-\\u2064\\uFEFF';

/** A name's pattern: no bidirectional control and no noncharacter anywhere. */
export const withoutBidiControls = `^[^${bidiControls}${nonCharacters}]*$`;

/** A text's pattern: not blank (one character that shows), no bidirectional control and no noncharacter anywhere. */
export const visibleTextWithoutBidiControls = `^(?=[\\s\\S]*[^${invisible}])[^${bidiControls}${nonCharacters}]*$`;

export const bidiRule =
  'no bidirectional override or isolate (U+202A-U+202E, U+2066-U+2069), no noncharacter (U+FDD0-U+FDEF, U+FFFE, U+FFFF)';
