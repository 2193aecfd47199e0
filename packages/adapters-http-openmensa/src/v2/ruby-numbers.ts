/**
 * Numbers as openmensa.org's JSON writes them: Ruby's Float#to_s. A whole amount keeps its `.0` (typed clients, e.g.
 * Dart's and Swift's, cast prices to double and fail on an integer), and very small or very large magnitudes use
 * Ruby's exponent form (`1.0e-05`, `1.0e+16`).
 */
export function rubyFloat(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude < 1e-4 || magnitude >= 1e16)) return rubyExponent(value);
  const text = String(value);
  return text.includes('.') ? text : `${text}.0`;
}

function rubyExponent(value: number): string {
  const [mantissa = '', exponent = ''] = value.toExponential().split('e');
  const sign = exponent.startsWith('-') ? '-' : '+';
  const digits = exponent.replace(/^[+-]/, '').padStart(2, '0');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}e${sign}${digits}`;
}

/**
 * A canonical price ("2.60", "3.00", "3.125") as openmensa.org answers it: its decimal column read as a float, so
 * without trailing zeros but with at least one decimal ("2.6", "3.0", "3.125"). Text to text: no digit is lost.
 */
export function rubyPrice(canonical: string): string {
  const [whole, fraction = ''] = canonical.split('.');
  const decimals = fraction.replace(/0+$/, '');
  return `${whole}.${decimals === '' ? '0' : decimals}`;
}
