import { labelVocabulary, withParents, type LabelCode } from './label.js';

/**
 * The spellings feeds use for labels, beyond each label's own code and German and English names: German and English
 * words as menus write them, the numbers of the usual additive list (1 to 10, in the order of the
 * Zusatzstoff-Zulassungsverordnung) and the letters of the Annex II allergens as German and Austrian menus print them
 * (A to R, with A1..A6 for the cereals and H1..H8 for the nuts). Keys are compared after `normalizedNote`.
 */
const builtInSpellings: Readonly<Record<string, LabelCode>> = {
  // Allergens, German.
  'glutenhaltiges getreide': 'gluten',
  glutenhaltig: 'gluten',
  getreide: 'gluten',
  krebstiere: 'crustaceans',
  krebse: 'crustaceans',
  krustentiere: 'crustaceans',
  ei: 'eggs',
  eier: 'eggs',
  hühnerei: 'eggs',
  fische: 'fish',
  fisch: 'fish',
  erdnuss: 'peanuts',
  erdnüsse: 'peanuts',
  sojabohnen: 'soy',
  sojabohne: 'soy',
  soja: 'soy',
  milch: 'milk',
  'milch und laktose': 'milk',
  'milch/milchzucker': 'milk',
  milchzucker: 'milk',
  laktose: 'milk',
  'milch und milchprodukte': 'milk',
  milcherzeugnisse: 'milk',
  schalenfrüchte: 'nuts',
  schalenobst: 'nuts',
  nüsse: 'nuts',
  hartschalenobst: 'nuts',
  mandel: 'almonds',
  haselnuss: 'hazelnuts',
  walnuss: 'walnuts',
  cashew: 'cashews',
  cashewkerne: 'cashews',
  cashewnuss: 'cashews',
  pekannuss: 'pecans',
  paranuss: 'brazil_nuts',
  pistazie: 'pistachios',
  macadamia: 'macadamia',
  macadamianuss: 'macadamia',
  queenslandnüsse: 'macadamia',
  queenslandnuss: 'macadamia',
  sesam: 'sesame',
  sesamsamen: 'sesame',
  schwefeldioxid: 'sulphites',
  sulfite: 'sulphites',
  sulphite: 'sulphites',
  'schwefeldioxid und sulfite': 'sulphites',
  'schwefeldioxid und sulphite': 'sulphites',
  'schwefeldioxid so2 und sulfite': 'sulphites',
  'schwefeldioxid oder sulfite': 'sulphites',
  'schwefeldioxid/sulfite': 'sulphites',
  lupine: 'lupin',
  lupinen: 'lupin',
  weichtiere: 'molluscs',
  'weichtiere (mollusken)': 'molluscs',
  mollusken: 'molluscs',
  // Allergens, English.
  'cereals containing gluten': 'gluten',
  egg: 'eggs',
  peanut: 'peanuts',
  soya: 'soy',
  soybeans: 'soy',
  lactose: 'milk',
  'tree nuts': 'nuts',
  nut: 'nuts',
  almond: 'almonds',
  hazelnut: 'hazelnuts',
  walnut: 'walnuts',
  cashew_nut: 'cashews',
  'sesame seeds': 'sesame',
  'sulphur dioxide': 'sulphites',
  sulfites: 'sulphites',
  'sulphur dioxide and sulphites': 'sulphites',
  mollusks: 'molluscs',
  crustacean: 'crustaceans',
  // Additives, German as feeds write them (singular and plural).
  farbstoff: 'colourant',
  'mit farbstoffen': 'colourant',
  'mit farbstoff': 'colourant',
  gefärbt: 'colourant',
  konservierungsstoff: 'preservative',
  'mit konservierungsstoffen': 'preservative',
  konserviert: 'preservative',
  antioxidationsmittel: 'antioxidant',
  'mit antioxidationsmitteln': 'antioxidant',
  geschmacksverstärker: 'flavour_enhancer',
  'mit geschmacksverstärkern': 'flavour_enhancer',
  geschwefelt: 'sulphured',
  geschwärzt: 'blackened',
  gewachst: 'waxed',
  phosphat: 'phosphate',
  'mit phosphaten': 'phosphate',
  süßungsmittel: 'sweetener',
  'mit süßungsmitteln': 'sweetener',
  'mit süssungsmittel': 'sweetener',
  'mit süssungsmitteln': 'sweetener',
  süßstoff: 'sweetener',
  phenylalaninquelle: 'phenylalanine',
  'enthält eine phenylalaninquelle': 'phenylalanine',
  phenylalanin: 'phenylalanine',
  koffein: 'caffeine',
  coffeinhaltig: 'caffeine',
  chinin: 'quinine',
  taurin: 'taurine',
  'gentechnisch verändert': 'genetically_modified',
  // Additives, English.
  'with colouring': 'colourant',
  colouring: 'colourant',
  colourants: 'colourant',
  'with colourants': 'colourant',
  'with preservatives': 'preservative',
  preservatives: 'preservative',
  'with antioxidants': 'antioxidant',
  antioxidants: 'antioxidant',
  'flavour enhancer': 'flavour_enhancer',
  sulphurised: 'sulphured',
  sulfured: 'sulphured',
  'with phosphates': 'phosphate',
  'with sweeteners': 'sweetener',
  sweeteners: 'sweetener',
  'contains caffeine': 'caffeine',
  'contains quinine': 'quinine',
  // Diets and ingredients.
  vegetarisch: 'vegetarian',
  'vegetarisches gericht': 'vegetarian',
  'fleischloses gericht': 'vegetarian',
  'ovo-lacto-vegetabil': 'vegetarian',
  veggie: 'vegetarian',
  'veganes gericht': 'vegan',
  schwein: 'pork',
  schweinefleisch: 'pork',
  'mit schweinefleisch': 'pork',
  rind: 'beef',
  rindfleisch: 'beef',
  'mit rindfleisch': 'beef',
  geflügel: 'poultry',
  geflügelfleisch: 'poultry',
  'mit geflügelfleisch': 'poultry',
  'mit geflügel': 'poultry',
  huhn: 'poultry',
  hähnchen: 'poultry',
  pute: 'poultry',
  chicken: 'poultry',
  turkey: 'poultry',
  lamm: 'lamb',
  lammfleisch: 'lamb',
  wild: 'game',
  wildfleisch: 'game',
  venison: 'game',
  alkohol: 'alcohol',
  'mit alkohol': 'alcohol',
  alkoholhaltig: 'alcohol',
  // The numbered additive list.
  '1': 'colourant',
  '2': 'preservative',
  '3': 'antioxidant',
  '4': 'flavour_enhancer',
  '5': 'sulphured',
  '6': 'blackened',
  '7': 'waxed',
  '8': 'phosphate',
  '9': 'sweetener',
  '10': 'phenylalanine',
  // The lettered allergen list.
  a: 'gluten',
  a1: 'wheat',
  a2: 'rye',
  a3: 'barley',
  a4: 'oats',
  a5: 'spelt',
  a6: 'kamut',
  b: 'crustaceans',
  c: 'eggs',
  d: 'fish',
  e: 'peanuts',
  f: 'soy',
  g: 'milk',
  h: 'nuts',
  h1: 'almonds',
  h2: 'hazelnuts',
  h3: 'walnuts',
  h4: 'cashews',
  h5: 'pecans',
  h6: 'brazil_nuts',
  h7: 'pistachios',
  h8: 'macadamia',
  l: 'celery',
  m: 'mustard',
  n: 'sesame',
  o: 'sulphites',
  p: 'lupin',
  r: 'molluscs',
};

/**
 * A note as the tables compare it: Unicode NFC, lowercase, white space (em spaces too) collapsed, and the brackets
 * around a short code taken off (`(2)`, `[A1]`), so that `Weizen`, ` weizen ` and `WEIZEN` are one spelling.
 */
export function normalizedNote(note: string): string {
  const text = note.normalize('NFC').toLowerCase().replace(/\s+/gu, ' ').trim();
  const bracketed = /^[([{](.*)[)\]}]$/u.exec(text);
  return bracketed === null ? text : bracketed[1]!.trim();
}

/** The built-in table: each label's code and names, then the spellings above, all normalized. */
const builtIn: ReadonlyMap<string, LabelCode> = new Map([
  ...labelVocabulary
    .filter((label) => label.kind !== 'menu')
    .flatMap((label) => [
      [label.code, label.code] as const,
      [normalizedNote(label.name.de), label.code] as const,
      [normalizedNote(label.name.en), label.code] as const,
    ]),
  ...Object.entries(builtInSpellings).map(([spelling, code]) => [normalizedNote(spelling), code] as const),
]);

/** Only a key this long may stand at the start of a longer note ("Sellerie und daraus hergestellte Erzeugnisse"). */
const minPrefixLength = 4;

/**
 * Maps notes to label codes: first the canteen's own spellings (`note_labels` of the canteen), then the built-in
 * table. A note maps when it is a known spelling, when it starts with a known word followed by a separator (`Senf und
 * daraus hergestellte Erzeugnisse`, `Milch/Milchzucker (Laktose)`), or when it is a list (`A, C, 3`) each of whose
 * parts maps. Notes stay what they were; a note that maps to nothing adds no label.
 */
export class NoteLabels {
  private readonly table: ReadonlyMap<string, LabelCode>;
  private readonly prefixes: readonly (readonly [string, LabelCode])[];

  constructor(canteenSpellings: Readonly<Record<string, LabelCode>> = {}) {
    const own = Object.entries(canteenSpellings).map(([spelling, code]) => [normalizedNote(spelling), code] as const);
    this.table = new Map([...builtIn, ...own]);
    // The longest first: "schwefeldioxid und sulfite" before "schwefeldioxid".
    this.prefixes = [...this.table]
      .filter(([key]) => key.length >= minPrefixLength)
      .sort(([a], [b]) => b.length - a.length);
  }

  /** The labels of these notes, with their parents, sorted, each once. */
  labelsOf(notes: readonly string[]): LabelCode[] {
    return withParents(notes.flatMap((note) => this.codesOf(normalizedNote(note))));
  }

  /** The codes one note names; empty when it names none. */
  codesOf(note: string): LabelCode[] {
    const exact = this.table.get(note);
    if (exact !== undefined) return [exact];
    // "Allergene: Senf, Sellerie": the heading names nothing, the list after it does.
    const headed = /^(?:allergene|allergens|zusatzstoffe|additives|kennzeichnung|enthält|contains)\s*:\s*(.+)$/u.exec(
      note,
    );
    if (headed !== null) return this.codesOf(headed[1]!);
    const parts = note.split(/\s*[,;]\s*/u).filter((part) => part !== '');
    if (parts.length > 1) {
      const codes = parts.map((part) => this.table.get(normalizedNote(part)));
      if (codes.every((code) => code !== undefined)) return codes as LabelCode[];
    }
    for (const [key, code] of this.prefixes) {
      if (note.startsWith(key) && /^[\s,;:/(-]/u.test(note.slice(key.length))) return [code];
    }
    return [];
  }
}

/** The built-in table alone, for feeds of canteens that add no spelling of their own. */
export const builtInNoteLabels = new NoteLabels();
