import type { CanteenId } from '../canteen/canteen.js';
import { emptyHistogram, type RatingHistogram } from '../rating/rating-histogram.js';
import { accept, refuse, type Result } from '../shared/refusal.js';

/** A positive integer that names a dish: what every serving of "the same meal" of one canteen shares. */
export type DishId = number;

/**
 * The identity of a dish within its canteen: the name after Unicode NFKC, case folding, and white space collapsed
 * and trimmed. Two servings of one canteen whose names have the same key are servings of one dish, whatever their
 * spelling of case, width or spacing.
 */
export function dishNameKey(name: string): string {
  // toUpperCase then toLowerCase folds what lowercasing alone leaves apart (ß and SS, ſ and s).
  return name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC').replace(/\s+/gu, ' ').trim();
}

/**
 * What dish search compares: the name key without diacritics (é is e, ü is u), so a search for "kase" finds
 * "Käsespätzle".
 */
export function dishSearchKey(name: string): string {
  return dishNameKey(name).normalize('NFKD').replace(/\p{M}/gu, '').normalize('NFC');
}

/** A dish as its servings make it, at one instant: statistics over all servings, withdrawn ones' ratings included. */
export interface DishSummary {
  readonly id: DishId;
  readonly canteenId: CanteenId;
  /** The name the dish was first served under. */
  readonly name: string;
  readonly histogram: RatingHistogram;
  /** Servings at or before the instant asked about that are not withdrawn. */
  readonly timesServed: number;
  /** The latest of those; null when there is none. */
  readonly lastServedAt: Date | null;
  /** The first serving after the instant that is not withdrawn; null when there is none. */
  readonly nextServedAt: Date | null;
}

/** What a dish merge reads, inside its unit of work. */
export interface DishMergeSnapshot {
  readonly target:
    | { readonly id: DishId; readonly canteenId: CanteenId; readonly histogram: RatingHistogram }
    | undefined;
  /** The dishes named in `from` that exist, in any order. */
  readonly sources: readonly {
    readonly id: DishId;
    readonly canteenId: CanteenId;
    readonly histogram: RatingHistogram;
  }[];
}

/** What a merge writes: every serving and name of `sources` moves to `target`, whose histogram becomes `histogram`. */
export interface DishMerge {
  readonly target: DishId;
  readonly sources: readonly DishId[];
  readonly histogram: RatingHistogram;
}

export const dishMergeRefusals = ['dish_not_found', 'dishes_in_other_canteens', 'invalid_dish_merge'] as const;
export type DishMergeRefusal = (typeof dishMergeRefusals)[number];

/** The most dishes one merge moves. */
export const maxDishesPerMerge = 100;

/**
 * Pure: merges `from` into `target`. Every dish must exist and belong to the target's canteen; the target must not be
 * among `from`. The statistics add up exactly: the target's histogram is the sum of all of them.
 */
export function decideDishMerge(
  requested: { readonly target: DishId; readonly from: readonly DishId[] },
  snapshot: DishMergeSnapshot,
): Result<DishMerge, DishMergeRefusal> {
  const from = [...new Set(requested.from)];
  if (from.length === 0 || from.length > maxDishesPerMerge) {
    return refuse('invalid_dish_merge', `"from" names 1 to ${maxDishesPerMerge} dishes`);
  }
  if (from.includes(requested.target)) return refuse('invalid_dish_merge', 'a dish cannot be merged into itself');
  const { target } = snapshot;
  if (target === undefined) return refuse('dish_not_found', `The dish ${requested.target} does not exist.`);
  const found = new Map(snapshot.sources.map((source) => [source.id, source]));
  const missing = from.find((id) => !found.has(id));
  if (missing !== undefined) return refuse('dish_not_found', `The dish ${missing} does not exist.`);
  const elsewhere = snapshot.sources.find((source) => source.canteenId !== target.canteenId);
  if (elsewhere !== undefined) {
    return refuse(
      'dishes_in_other_canteens',
      `The dish ${elsewhere.id} belongs to another canteen than dish ${target.id}.`,
    );
  }
  return accept({
    target: target.id,
    sources: from,
    histogram: sumOf([target.histogram, ...snapshot.sources.map((s) => s.histogram)]),
  });
}

export function sumOf(histograms: readonly RatingHistogram[]): RatingHistogram {
  return histograms.reduce<RatingHistogram>(
    (sum, histogram) => sum.map((count, index) => count + histogram[index]!) as unknown as RatingHistogram,
    emptyHistogram,
  );
}

/** The histogram of a dish after a serving with histogram `serving` leaves it (a rename, a move to another dish). */
export function withoutServing(dish: RatingHistogram, serving: RatingHistogram): RatingHistogram {
  const counts = dish.map((count, index) => count - serving[index]!) as unknown as RatingHistogram;
  if (counts.some((count) => count < 0)) throw new RangeError(`a dish histogram would go negative: ${dish.join(',')}`);
  return counts;
}
