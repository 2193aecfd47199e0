/** A stable label code: a lowercase ASCII word (words joined by `_`), e.g. `gluten`, `wheat`, `flavour_enhancer`. */
export type LabelCode = string;

/**
 * What a label says: an allergen of EU Regulation 1169/2011 Annex II (or a sub-kind the Annex names), an additive
 * German menus must declare, a diet, an ingredient, or that an entry is a placeholder rather than a meal.
 */
export type LabelKind = 'allergen' | 'additive' | 'diet' | 'ingredient' | 'menu';

export interface Label {
  readonly code: LabelCode;
  readonly kind: LabelKind;
  /** The label this one implies (`wheat` implies `gluten`); null for a label that stands alone. */
  readonly parent: LabelCode | null;
  readonly name: { readonly de: string; readonly en: string };
}

export const labelCodePattern = /^[a-z]+(_[a-z]+)*$/;

const entry = (code: LabelCode, kind: LabelKind, de: string, en: string, parent: LabelCode | null = null): Label =>
  Object.freeze({ code, kind, parent, name: Object.freeze({ de, en }) });

/**
 * The whole vocabulary, in the order of the legend. A parent has no parent itself, and every sub-kind has the kind
 * of its parent: one step up is all a reader must follow (see the property test of the parent rules).
 */
export const labelVocabulary: readonly Label[] = Object.freeze([
  // EU Regulation 1169/2011, Annex II, points 1 to 14, with the sub-kinds points 1 and 8 name.
  entry('gluten', 'allergen', 'Glutenhaltiges Getreide', 'Cereals containing gluten'),
  entry('wheat', 'allergen', 'Weizen', 'Wheat', 'gluten'),
  entry('rye', 'allergen', 'Roggen', 'Rye', 'gluten'),
  entry('barley', 'allergen', 'Gerste', 'Barley', 'gluten'),
  entry('oats', 'allergen', 'Hafer', 'Oats', 'gluten'),
  entry('spelt', 'allergen', 'Dinkel', 'Spelt', 'gluten'),
  entry('kamut', 'allergen', 'Kamut', 'Kamut', 'gluten'),
  entry('crustaceans', 'allergen', 'Krebstiere', 'Crustaceans'),
  entry('eggs', 'allergen', 'Eier', 'Eggs'),
  entry('fish', 'allergen', 'Fisch', 'Fish'),
  entry('peanuts', 'allergen', 'Erdnüsse', 'Peanuts'),
  entry('soy', 'allergen', 'Soja', 'Soybeans'),
  entry('milk', 'allergen', 'Milch (einschließlich Laktose)', 'Milk (including lactose)'),
  entry('nuts', 'allergen', 'Schalenfrüchte', 'Nuts'),
  entry('almonds', 'allergen', 'Mandeln', 'Almonds', 'nuts'),
  entry('hazelnuts', 'allergen', 'Haselnüsse', 'Hazelnuts', 'nuts'),
  entry('walnuts', 'allergen', 'Walnüsse', 'Walnuts', 'nuts'),
  entry('cashews', 'allergen', 'Cashewnüsse', 'Cashews', 'nuts'),
  entry('pecans', 'allergen', 'Pekannüsse', 'Pecan nuts', 'nuts'),
  entry('brazil_nuts', 'allergen', 'Paranüsse', 'Brazil nuts', 'nuts'),
  entry('pistachios', 'allergen', 'Pistazien', 'Pistachio nuts', 'nuts'),
  entry('macadamia', 'allergen', 'Macadamianüsse', 'Macadamia nuts', 'nuts'),
  entry('celery', 'allergen', 'Sellerie', 'Celery'),
  entry('mustard', 'allergen', 'Senf', 'Mustard'),
  entry('sesame', 'allergen', 'Sesamsamen', 'Sesame seeds'),
  entry('sulphites', 'allergen', 'Schwefeldioxid und Sulfite', 'Sulphur dioxide and sulphites'),
  entry('lupin', 'allergen', 'Lupinen', 'Lupin'),
  entry('molluscs', 'allergen', 'Weichtiere', 'Molluscs'),
  // The additives German menus declare (Zusatzstoff-Zulassungsverordnung, LMIV): the usual numbered list.
  entry('colourant', 'additive', 'mit Farbstoff', 'with colourant'),
  entry('preservative', 'additive', 'mit Konservierungsstoff', 'with preservative'),
  entry('antioxidant', 'additive', 'mit Antioxidationsmittel', 'with antioxidant'),
  entry('flavour_enhancer', 'additive', 'mit Geschmacksverstärker', 'with flavour enhancer'),
  entry('sulphured', 'additive', 'geschwefelt', 'sulphured'),
  entry('blackened', 'additive', 'geschwärzt', 'blackened'),
  entry('waxed', 'additive', 'gewachst', 'waxed'),
  entry('phosphate', 'additive', 'mit Phosphat', 'with phosphate'),
  entry('sweetener', 'additive', 'mit Süßungsmittel', 'with sweetener'),
  entry('phenylalanine', 'additive', 'enthält eine Phenylalaninquelle', 'contains a source of phenylalanine'),
  entry('caffeine', 'additive', 'koffeinhaltig', 'contains caffeine'),
  entry('quinine', 'additive', 'chininhaltig', 'contains quinine'),
  entry('taurine', 'additive', 'taurinhaltig', 'contains taurine'),
  entry(
    'laxative',
    'additive',
    'kann bei übermäßigem Verzehr abführend wirken',
    'excessive consumption may have laxative effects',
  ),
  entry('genetically_modified', 'additive', 'gentechnisch verändert', 'genetically modified'),
  // Diets: vegan food is vegetarian food, so `only=vegetarian` keeps vegan meals.
  entry('vegetarian', 'diet', 'vegetarisch', 'vegetarian'),
  entry('vegan', 'diet', 'vegan', 'vegan', 'vegetarian'),
  // Ingredients people choose by (fish is the Annex II allergen above, one code for both).
  entry('pork', 'ingredient', 'Schwein', 'Pork'),
  entry('beef', 'ingredient', 'Rind', 'Beef'),
  entry('poultry', 'ingredient', 'Geflügel', 'Poultry'),
  entry('lamb', 'ingredient', 'Lamm', 'Lamb'),
  entry('game', 'ingredient', 'Wild', 'Game'),
  entry('alcohol', 'ingredient', 'Alkohol', 'Alcohol'),
  // Not a property of food: the entry only says there is nothing (see placeholder.ts).
  entry('placeholder', 'menu', 'kein Gericht (Platzhalter)', 'no meal (placeholder)'),
]);

const byCode: ReadonlyMap<LabelCode, Label> = new Map(labelVocabulary.map((label) => [label.code, label]));

export function isLabelCode(value: unknown): value is LabelCode {
  return typeof value === 'string' && byCode.has(value);
}

export function labelOf(code: LabelCode): Label | undefined {
  return byCode.get(code);
}

/**
 * The codes with every parent they imply, each once, sorted: what a meal stores and answers. Unknown codes are the
 * caller's to refuse first (see unknownLabelCodes); here they are kept as they are.
 */
export function withParents(codes: Iterable<LabelCode>): LabelCode[] {
  const all = new Set<LabelCode>();
  for (const code of codes) {
    all.add(code);
    const parent = byCode.get(code)?.parent;
    if (parent != null) all.add(parent);
  }
  return [...all].sort();
}

/** The codes not in the vocabulary, each once, in the order given. */
export function unknownLabelCodes(codes: Iterable<string>): string[] {
  return [...new Set([...codes].filter((code) => !byCode.has(code)))];
}
