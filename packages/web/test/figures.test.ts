import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barShares, figuresText, numberFormats } from '../src/dashboard/figures.js';
import { texts } from '../src/dashboard/texts.js';

const distribution = (counts: readonly [number, number, number, number, number]) =>
  ({ 1: counts[0], 2: counts[1], 3: counts[2], 4: counts[3], 5: counts[4] }) as const;

describe('figuresText', () => {
  it('says "no ratings yet" and shows a dash when nobody rated', () => {
    expect(
      figuresText({ rating_count: 0, rating_average: null, rating_median: null }, texts.en, numberFormats('en')),
    ).toEqual({
      average: '–',
      detail: 'no ratings yet',
    });
    expect(
      figuresText({ rating_count: 0, rating_average: null, rating_median: null }, texts.de, numberFormats('de')).detail,
    ).toBe('noch keine Bewertungen');
  });

  it('writes numbers as the language does: one decimal, a comma in German, a separator for thousands', () => {
    const figures = { rating_count: 1234, rating_average: 4.25, rating_median: 4 };
    expect(figuresText(figures, texts.en, numberFormats('en'))).toEqual({
      average: '4.3',
      detail: '1,234 ratings · median 4.0',
    });
    expect(figuresText(figures, texts.de, numberFormats('de'))).toEqual({
      average: '4,3',
      detail: '1.234 Bewertungen · Median 4,0',
    });
    expect(
      figuresText({ rating_count: 1, rating_average: 5, rating_median: 5 }, texts.en, numberFormats('en')).detail,
    ).toBe('1 rating · median 5.0');
  });
});

describe('barShares', () => {
  it('gives the most frequent star a full bar and the others their share of it', () => {
    expect(barShares(distribution([0, 1, 2, 4, 2]))).toEqual({ 1: 0, 2: 0.25, 3: 0.5, 4: 1, 5: 0.5 });
    expect(barShares(distribution([0, 0, 0, 0, 0]))).toEqual({ 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 });
  });

  it('keeps every share within 0..1 with at least one full bar whenever anyone rated', () => {
    const count = fc.nat({ max: 100_000 });
    fc.assert(
      fc.property(fc.tuple(count, count, count, count, count), (counts) => {
        const shares = Object.values(barShares(distribution(counts)));
        expect(shares.every((share) => share >= 0 && share <= 1)).toBe(true);
        expect(shares.includes(1)).toBe(counts.some((each) => each > 0));
      }),
    );
  });
});

describe('the texts', () => {
  it('have every English key in German too, and no empty text', () => {
    for (const table of Object.values(texts)) {
      expect(Object.keys(table).sort()).toEqual(Object.keys(texts.en).sort());
      for (const value of Object.values(table)) if (typeof value === 'string') expect(value.trim()).not.toBe('');
    }
  });
});
