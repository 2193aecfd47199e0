import type { Language } from '../shared/language.js';
import type { DashboardTexts } from './texts.js';

/** A meal's figures as the live stream and the menu carry them. */
export interface MealFigures {
  readonly meal_id: number;
  readonly rating_count: number;
  readonly rating_average: number | null;
  readonly rating_median: number | null;
  readonly rating_distribution: Readonly<Record<'1' | '2' | '3' | '4' | '5', number>>;
}

export interface FiguresText {
  readonly average: string;
  readonly detail: string;
}

/** Numbers as the page's language writes them ("4,3" in German). */
export function numberFormats(language: Language) {
  const oneDecimal = new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const whole = new Intl.NumberFormat(language);
  return { oneDecimal: (value: number) => oneDecimal.format(value), whole: (value: number) => whole.format(value) };
}
export type NumberFormats = ReturnType<typeof numberFormats>;

/** The average in large type and the line under it: how many ratings, and the median. */
export function figuresText(
  figures: Pick<MealFigures, 'rating_count' | 'rating_average' | 'rating_median'>,
  t: DashboardTexts,
  format: NumberFormats,
): FiguresText {
  const { rating_count: count, rating_average: average, rating_median: median } = figures;
  if (count === 0 || average === null) return { average: '–', detail: t.noRatings };
  const ratings = t.ratings(format.whole(count), count === 1);
  return {
    average: format.oneDecimal(average),
    detail: median === null ? ratings : `${ratings} · ${t.median(format.oneDecimal(median))}`,
  };
}

/** Each bar's length as a share of the longest (the longest fills its track; all empty when nobody rated). */
export function barShares(
  distribution: MealFigures['rating_distribution'],
): Readonly<Record<1 | 2 | 3 | 4 | 5, number>> {
  const counts = [1, 2, 3, 4, 5].map((stars) => distribution[String(stars) as keyof typeof distribution]);
  const most = Math.max(1, ...counts);
  return {
    1: counts[0]! / most,
    2: counts[1]! / most,
    3: counts[2]! / most,
    4: counts[3]! / most,
    5: counts[4]! / most,
  };
}
