import { describe, expect, it } from 'vitest';
import { isPriceGroup, priceFor, priceGroups } from '../src/app/model/prices.js';

// Intl writes a no-break space (U+00A0) or a narrow one (U+202F) between amount and sign, depending on its data.
const spaced = (text: string | null) => text?.replace(/[\u00a0\u202f]/g, ' ') ?? null;

describe('priceFor', () => {
  const prices = { student: '2.90', employee: '4.10', other: '1234.5' };

  it('writes euros as the page language does', () => {
    expect(spaced(priceFor(prices, 'student', 'en'))).toBe('€2.90');
    expect(spaced(priceFor(prices, 'student', 'de'))).toBe('2,90 €');
    expect(spaced(priceFor(prices, 'employee', 'en'))).toBe('€4.10');
    expect(spaced(priceFor(prices, 'employee', 'de'))).toBe('4,10 €');
  });

  it('always with two decimals and grouped thousands', () => {
    expect(spaced(priceFor(prices, 'other', 'en'))).toBe('€1,234.50');
    expect(spaced(priceFor(prices, 'other', 'de'))).toBe('1.234,50 €');
    expect(spaced(priceFor({ student: '0' }, 'student', 'en'))).toBe('€0.00');
  });

  it('is null when the menu gives no price for the group', () => {
    expect(priceFor(prices, 'pupil', 'en')).toBeNull();
    expect(priceFor({}, 'student', 'de')).toBeNull();
  });
});

describe('isPriceGroup', () => {
  it("takes OpenMensa's four roles only", () => {
    expect(priceGroups).toEqual(['student', 'employee', 'pupil', 'other']);
    for (const group of priceGroups) expect(isPriceGroup(group)).toBe(true);
    for (const value of ['Student', 'students', '', null, undefined, 1]) expect(isPriceGroup(value)).toBe(false);
  });
});
