import { describe, expect, it } from 'vitest';
import { breakableParts, nameScale, smallestNameScale } from '../src/dashboard/fit-names.js';

// The wall broke "Gemüselasagne" inside the word. A name whose widest part does not fit is written smaller.
describe('fitting a name to its card', () => {
  it('keeps a name whose widest word fits, and shrinks one that does not, down to the smallest scale', () => {
    expect(nameScale(150, 195)).toBe(1);
    expect(nameScale(195, 195)).toBe(1);
    expect(nameScale(210, 195)).toBe(0.92);
    expect(nameScale(1000, 195)).toBe(smallestNameScale);
    expect(nameScale(100, 0)).toBe(1); // not laid out (a hidden page): nothing to fit
  });

  it('measures words and the parts of hyphenated words, where a line may break', () => {
    expect(breakableParts('Kartoffel-Gemüse-Pfanne mit  Dip')).toEqual([
      'Kartoffel-',
      'Gemüse-',
      'Pfanne',
      'mit',
      'Dip',
    ]);
    expect(breakableParts(' Tomatensuppe ')).toEqual(['Tomatensuppe']);
  });
});
