/** The OpenMensa price roles: who pays the price. */
export const priceRoles = ['student', 'employee', 'pupil', 'other'] as const;
export type PriceRole = (typeof priceRoles)[number];

/**
 * Euro amounts per role, as canonical decimal strings ("2.60", "0.05", "3.125"): a string keeps every digit the
 * canteen published, where a float would turn 2.60 into 2.6000000000000001 and cents would drop a third decimal.
 */
export type MealPrices = Readonly<Partial<Record<PriceRole, string>>>;

export function isPriceRole(value: string): value is PriceRole {
  return (priceRoles as readonly string[]).includes(value);
}

const maxIntegerDigits = 7;
const maxFractionDigits = 6;

/**
 * The canonical form of a non-negative decimal amount, or undefined when `text` is not one. Accepts plain decimals
 * ("2.6", "02.60", ".5") and exponents ("2.6E0", as XML Schema floats may be written); answers no leading zeros, at
 * least two decimals and no trailing zeros beyond them: "2.6" -> "2.60", "3" -> "3.00", "2.6050" -> "2.605".
 */
export function canonicalPrice(text: string): string | undefined {
  const match = /^\+?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$/.exec(text);
  if (match === null) return undefined;
  const [, whole = '', fraction = '', exponent = '0'] = match;
  if (whole === '' && fraction === '') return undefined;
  let digits = whole + fraction;
  let point = whole.length + Number(exponent);
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const integer = digits.slice(0, point).replace(/^0+(?=\d)/, '') || '0';
  const decimals = digits.slice(point).replace(/0+$/, '').padEnd(2, '0');
  if (integer.length > maxIntegerDigits || decimals.length > maxFractionDigits) return undefined;
  return `${integer}.${decimals}`;
}

export function isCanonicalPrice(value: unknown): value is string {
  return typeof value === 'string' && canonicalPrice(value) === value;
}
