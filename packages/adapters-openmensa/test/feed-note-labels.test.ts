import { readFileSync } from 'node:fs';
import { readOpenMensaFeed } from '@canteen-meals/adapters-openmensa';
import { builtInNoteLabels, NoteLabels, normalizedNote } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';

// Real feeds nobody here wrote (see fixtures/README.md), read as an import reads them. For each, every distinct note
// the feed holds, with the codes it must map to (by hand, from the note's wording): those that name an Annex II
// allergen or a declared additive, and the diets and meats. A note that names none of them maps to nothing.
const fixture = (name: string) => readOpenMensaFeed(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const notesOf = (name: string) =>
  [...new Set(fixture(name).days.flatMap((day) => (day.closed ? [] : day.items.flatMap((item) => item.notes))))].sort();

const greifswald: Record<string, string[]> = {
  'Eier und daraus hergestellte Erzeugnisse': ['eggs'],
  'Fische und daraus hergestellte Erzeugnisse': ['fish'],
  'Glutenhaltiges Getreide': ['gluten'],
  'Milch/Milchzucker (Laktose)': ['milk'],
  Rindfleisch: ['beef'],
  'Schalenfrüchte und daraus hergestellte Erzeugnisse (Mandeln, Haselnuss usw.)': ['nuts'],
  Schweinefleisch: ['pork'],
  'Sellerie und daraus hergestellte Erzeugnisse': ['celery'],
  'Senf und daraus hergestellte Erzeugnisse': ['mustard'],
  'Sesamsamen und daraus hergestellte Erzeugnisse': ['sesame'],
  'Sojabohnen und daraus hergestellte Erzeugnisse': ['soy'],
  'jodiertes Salz': [],
  'mit Antioxidationsmittel': ['antioxidant'],
  'mit Farbstoff': ['colourant'],
  'mit Konservierungsstoff': ['preservative'],
  'mit Phosphat': ['phosphate'],
  'mit Süßungsmittel': ['sweetener'],
};

const stuttgart: Record<string, string[]> = {
  Dinkel: ['gluten', 'spelt'],
  Ei: ['eggs'],
  Hafer: ['gluten', 'oats'],
  Haselnüsse: ['hazelnuts', 'nuts'],
  Mandeln: ['almonds', 'nuts'],
  'Milch und Laktose': ['milk'],
  Rind: ['beef'],
  'Schwefeldioxid SO2 und Sulfite': ['sulphites'],
  Sellerie: ['celery'],
  Senf: ['mustard'],
  Sesam: ['sesame'],
  Soja: ['soy'],
  Weizen: ['gluten', 'wheat'],
  geschwefelt: ['sulphured'],
  geschwärzt: ['blackened'],
  'mit Antioxidationsmitteln': ['antioxidant'],
  'mit Farbstoffen': ['colourant'],
  'mit Süßungsmitteln': ['sweetener'],
  vegan: ['vegan', 'vegetarian'],
  vegetarisch: ['vegetarian'],
};

describe('notes of real feeds map to label codes by the built-in table', () => {
  it.each([
    ['greifswald-berthold-beitz-platz-feed.xml', greifswald],
    ['stuttgart-central-feed.xml', stuttgart],
  ])('%s: every note naming an allergen, an additive, a diet or a meat maps to its code', (file, expected) => {
    const notes = notesOf(file);
    // The table covers the whole feed (the nutrition and meal-name notes of Stuttgart aside, which name nothing).
    const named = notes.filter((note) => !/^Nährwerte|\s{2}/u.test(note));
    expect(named.map(normalizedNote).sort()).toEqual(Object.keys(expected).map(normalizedNote).sort());
    for (const note of notes) {
      const key = Object.keys(expected).find((known) => normalizedNote(known) === normalizedNote(note));
      expect(builtInNoteLabels.labelsOf([note]), note).toEqual(key === undefined ? [] : expected[key]);
    }
  });

  it('maps the numbered and lettered forms, bracketed or not, and lists of them', () => {
    const labels = builtInNoteLabels;
    expect(labels.labelsOf(['1'])).toEqual(['colourant']);
    expect(labels.labelsOf(['(2)'])).toEqual(['preservative']);
    expect(labels.labelsOf(['A'])).toEqual(['gluten']);
    expect(labels.labelsOf(['A1'])).toEqual(['gluten', 'wheat']);
    expect(labels.labelsOf(['[H3]'])).toEqual(['nuts', 'walnuts']);
    expect(labels.labelsOf(['A, C, 3'])).toEqual(['antioxidant', 'eggs', 'gluten']);
    expect(labels.labelsOf(['Allergene: Senf, Sellerie'])).toEqual(['celery', 'mustard']);
    expect(labels.labelsOf(['Schwefeldioxid oder Sulfite', 'Schalenfrüchte', 'Sesamsamen', 'Weizen'])).toEqual([
      'gluten',
      'nuts',
      'sesame',
      'sulphites',
      'wheat',
    ]);
    // A note that merely starts like a label word is not that label.
    expect(labels.labelsOf(['Milchreis', 'Wildreis', 'a la carte'])).toEqual([]);
  });

  it("consults the canteen's own spellings first, and they extend the built-in table", () => {
    const own = new NoteLabels({ 'mit Sesam': 'sesame', '1': 'caffeine', Gefl: 'poultry' });
    expect(own.labelsOf(['MIT SESAM'])).toEqual(['sesame']);
    expect(own.labelsOf(['1'])).toEqual(['caffeine']);
    expect(own.labelsOf(['Gefl, A, C'])).toEqual(['eggs', 'gluten', 'poultry']);
    expect(own.labelsOf(['Weizen'])).toEqual(['gluten', 'wheat']);
  });
});
