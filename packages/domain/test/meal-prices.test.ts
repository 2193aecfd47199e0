import { canonicalPrice, isCanonicalPrice } from '@canteen-meals/domain';
import { describe, expect, it } from 'vitest';

describe('canonicalPrice: euro amounts as decimal strings that lose no digit', () => {
  it.each([
    ['2.60', '2.60'],
    ['2.6', '2.60'],
    ['3', '3.00'],
    ['02.60', '2.60'],
    ['.5', '0.50'],
    ['0', '0.00'],
    ['2.6050', '2.605'],
    ['1234567.123456', '1234567.123456'],
    ['+4.10', '4.10'],
    ['2.6E0', '2.60'],
    ['26e-1', '2.60'],
    ['0.026E2', '2.60'],
    ['1E3', '1000.00'],
  ])('%s -> %s', (text, canonical) => {
    expect(canonicalPrice(text)).toBe(canonical);
    expect(isCanonicalPrice(canonical)).toBe(true);
  });

  it.each([
    '-1.00',
    'INF',
    'NaN',
    '',
    '.',
    '2,60',
    '2.60 €',
    '12345678.00',
    '1.1234567',
    '1e400',
    ' 2.60',
  ])('refuses %j', (text) => expect(canonicalPrice(text)).toBeUndefined());

  it('tells canonical amounts from others', () => {
    expect(isCanonicalPrice('2.6')).toBe(false);
    expect(isCanonicalPrice('02.60')).toBe(false);
    expect(isCanonicalPrice(2.6)).toBe(false);
  });
});
