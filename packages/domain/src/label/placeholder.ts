import { normalizedNote } from './note-labels.js';

/** The label of a feed entry that only says there is nothing: not a meal, never rateable, left out of JSON menus. */
export const placeholderLabel = 'placeholder';

/** What feeds write instead of a meal; a canteen adds its own (`placeholder_names`). Compared after normalizedNote. */
export const builtInPlaceholderNames: readonly string[] = Object.freeze([
  'kein angebot',
  'heute kein angebot',
  'kein essen',
  'keine ausgabe',
  'geschlossen',
  'mensa geschlossen',
  'heute geschlossen',
  'no offer',
  'no meals',
  'closed',
]);

/** Tells placeholders from meals by name: the built-in names and a canteen's own, whole names only. */
export class PlaceholderNames {
  private readonly names: ReadonlySet<string>;

  constructor(canteenNames: readonly string[] = []) {
    this.names = new Set([...builtInPlaceholderNames, ...canteenNames].map(placeholderKey));
  }

  isPlaceholder(name: string): boolean {
    return this.names.has(placeholderKey(name));
  }
}

/** "Kein Angebot!", "– geschlossen –" and "kein Angebot" are one name. */
function placeholderKey(name: string): string {
  return normalizedNote(name).replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '');
}
