// The wall's names break between words, not inside one ("Gemüselasagn e"): a card whose name holds a word wider than
// the card writes that name smaller, down to 70 % of its size. Hyphenation (`hyphens: auto` in the CSS)
// needs the browser's dictionary for the language, which not every screen's browser has.

/** The smallest share of its size a name is written at; past it, the word breaks where it must. */
export const smallestNameScale = 0.7;

/** How much smaller a name is written so that its widest word fits: 1 when it fits already. */
export function nameScale(widestWordPx: number, widthPx: number, smallest = smallestNameScale): number {
  if (widthPx <= 0 || widestWordPx <= widthPx) return 1;
  return Math.max(smallest, Math.floor((widthPx / widestWordPx) * 100) / 100);
}

/** What a line may break between: words, and the parts of a hyphenated word (each with its hyphen). */
export function breakableParts(text: string): string[] {
  return text.split(/\s+|(?<=-)/).filter((part) => part !== '');
}

/** Fits every `.meal-name` of the list: measured with the names' own font, on the first card that is shown. */
export function fitNames(list: HTMLElement): void {
  const names = [...list.querySelectorAll<HTMLElement>('.meal-name')];
  for (const name of names) name.style.removeProperty('font-size');
  const sample = names.find((name) => name.clientWidth > 0);
  const context = document.createElement('canvas').getContext('2d');
  if (sample === undefined || context === null) return;
  const style = getComputedStyle(sample);
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  // The canvas measures a little narrower than the page sets the same text (kerning, subpixels): a margin.
  const width = sample.clientWidth * 0.96;
  const size = Number.parseFloat(style.fontSize);
  for (const name of names) {
    const widest = Math.max(
      0,
      ...breakableParts(name.textContent ?? '').map((part) => context.measureText(part).width),
    );
    const scale = nameScale(widest, width);
    if (scale < 1) name.style.fontSize = `${(size * scale).toFixed(2)}px`;
  }
}
