import { describe, expect, it } from 'vitest';
import { numberFormats } from '../src/dashboard/figures.js';
import { rankingText } from '../src/dashboard/ranking-text.js';
import { texts } from '../src/dashboard/texts.js';

describe('rankingText', () => {
  it('says "4.4 (5 ratings)" with the lower bound as a bar, so that "4.3 (8)" above it makes sense', () => {
    const few = rankingText({ score: 3.6, rating_count: 5, rating_average: 4.4 }, texts.en, numberFormats('en'));
    const many = rankingText({ score: 3.8, rating_count: 8, rating_average: 4.3 }, texts.en, numberFormats('en'));
    expect(few).toEqual({ figures: '4.4 (5 ratings)', sureShare: 0.65, sureLabel: 'surely at least 3.6 of 5' });
    expect(many.figures).toBe('4.3 (8 ratings)');
    expect(many.sureShare!).toBeGreaterThan(few.sureShare!);
  });

  it('speaks German with German numbers, and one rating in the singular', () => {
    expect(rankingText({ score: 1, rating_count: 1, rating_average: 5 }, texts.de, numberFormats('de'))).toEqual({
      figures: '5,0 (1 Bewertung)',
      sureShare: 0,
      sureLabel: 'sicher mindestens 1,0 von 5',
    });
    expect(
      rankingText({ score: 5, rating_count: 1234, rating_average: 5 }, texts.de, numberFormats('de')).figures,
    ).toBe('5,0 (1.234 Bewertungen)');
  });

  it('says "unrated" without a bar when nobody rated', () => {
    expect(rankingText({ score: null, rating_count: 0, rating_average: null }, texts.en, numberFormats('en'))).toEqual({
      figures: 'unrated',
      sureShare: null,
      sureLabel: null,
    });
  });

  it('explains the order in both languages', () => {
    expect(texts.en.rankingExplained).toMatch(/^Ranked by how sure we are that it is good/);
    expect(texts.de.rankingExplained).toMatch(/^Gereiht danach, wie sicher wir sind/);
    expect(Object.keys(texts.de.availability)).toEqual(Object.keys(texts.en.availability));
  });
});
