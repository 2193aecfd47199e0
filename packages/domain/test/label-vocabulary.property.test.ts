import {
  isLabelCode,
  labelCodePattern,
  labelFilterOf,
  labelOf,
  labelVocabulary,
  passesLabelFilter,
  unknownLabelCodes,
  withParents,
} from '@canteen-meals/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const codes = labelVocabulary.map((label) => label.code);
const someCodes = fc.array(fc.constantFrom(...codes), { maxLength: 12 });
const parents = labelVocabulary.filter((label) => labelVocabulary.some((other) => other.parent === label.code));

describe('the label vocabulary', () => {
  it('holds the 14 Annex II allergens, the sub-kinds the Annex names, and the declared additives', () => {
    const topAllergens = labelVocabulary
      .filter((label) => label.kind === 'allergen' && label.parent === null)
      .map((l) => l.code);
    expect(topAllergens).toEqual([
      'gluten',
      'crustaceans',
      'eggs',
      'fish',
      'peanuts',
      'soy',
      'milk',
      'nuts',
      'celery',
      'mustard',
      'sesame',
      'sulphites',
      'lupin',
      'molluscs',
    ]);
    expect(labelVocabulary.filter((label) => label.parent === 'gluten').map((l) => l.code)).toEqual([
      'wheat',
      'rye',
      'barley',
      'oats',
      'spelt',
      'kamut',
    ]);
    expect(labelVocabulary.filter((label) => label.parent === 'nuts').map((l) => l.code)).toEqual([
      'almonds',
      'hazelnuts',
      'walnuts',
      'cashews',
      'pecans',
      'brazil_nuts',
      'pistachios',
      'macadamia',
    ]);
    for (const code of [
      'colourant',
      'preservative',
      'antioxidant',
      'flavour_enhancer',
      'sulphured',
      'blackened',
      'waxed',
      'phosphate',
      'sweetener',
      'phenylalanine',
      'caffeine',
      'quinine',
    ]) {
      expect(labelOf(code)?.kind).toBe('additive');
    }
    for (const code of ['vegan', 'vegetarian', 'pork', 'beef', 'poultry', 'fish', 'lamb', 'game', 'alcohol'])
      expect(isLabelCode(code)).toBe(true);
  });

  it('has unique lowercase ASCII codes, German and English names, and one-step parents of the same kind', () => {
    expect(new Set(codes).size).toBe(codes.length);
    for (const label of labelVocabulary) {
      expect(label.code).toMatch(labelCodePattern);
      expect(label.name.de.trim()).not.toBe('');
      expect(label.name.en.trim()).not.toBe('');
      if (label.parent === null) continue;
      const parent = labelOf(label.parent);
      expect(parent, label.code).toBeDefined();
      expect(parent!.parent, `${label.code}'s parent has no parent`).toBeNull();
      expect(parent!.kind).toBe(label.kind);
    }
  });
});

describe('the parent rules, as properties', () => {
  it('withParents keeps every code, adds each parent, answers each code once, sorted, and is idempotent', () => {
    fc.assert(
      fc.property(someCodes, (given) => {
        const closed = withParents(given);
        expect(closed).toEqual([...new Set(closed)].sort());
        for (const code of given) {
          expect(closed).toContain(code);
          const parent = labelOf(code)!.parent;
          if (parent !== null) expect(closed).toContain(parent);
        }
        // Nothing but the given codes and their parents.
        for (const code of closed)
          expect(given.includes(code) || given.some((g) => labelOf(g)!.parent === code)).toBe(true);
        expect(withParents(closed)).toEqual(closed);
      }),
    );
  });

  it('without=parent leaves out every meal that carries the parent or any of its sub-kinds, listed with parents or not', () => {
    fc.assert(
      fc.property(someCodes, fc.constantFrom(...parents), fc.boolean(), (labels, parent, closeFirst) => {
        const meal = closeFirst ? withParents(labels) : labels;
        const carries = labels.some((code) => code === parent.code || labelOf(code)!.parent === parent.code);
        const filter = labelFilterOf([parent.code], []);
        expect(filter.ok).toBe(true);
        if (filter.ok) expect(passesLabelFilter(meal, filter.value)).toBe(!carries);
      }),
    );
  });

  it('only= keeps exactly the meals that carry every code, a sub-kind counting for its parent', () => {
    fc.assert(
      fc.property(someCodes, fc.array(fc.constantFrom(...codes), { maxLength: 3 }), (labels, only) => {
        const filter = labelFilterOf([], only);
        if (!filter.ok) throw new Error('known codes');
        const closed = new Set(withParents(labels));
        expect(passesLabelFilter(labels, filter.value)).toBe(only.every((code) => closed.has(code)));
      }),
    );
  });

  it('a filter is refused naming each unknown code, and each side is answered sorted, each code once', () => {
    fc.assert(
      fc.property(someCodes, fc.stringMatching(/^[a-z]{3,8}$/), (known, stranger) => {
        fc.pre(!isLabelCode(stranger));
        const refused = labelFilterOf([...known, stranger], [stranger]);
        expect(refused.ok).toBe(false);
        if (!refused.ok) expect(refused.refusal.message).toContain(`"${stranger}"`);
        expect(unknownLabelCodes([stranger, ...known, stranger])).toEqual([stranger]);
        const accepted = labelFilterOf(known, known);
        if (accepted.ok) expect(accepted.value.without).toEqual([...new Set(known)].sort());
      }),
    );
  });
});
