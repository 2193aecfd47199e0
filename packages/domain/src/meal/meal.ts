import { defaultCanteenId, type CanteenId } from '../canteen/canteen.js';
import type { LabelCode } from '../label/label.js';
import type { MealPrices } from './meal-prices.js';

/** A positive integer that identifies a meal across imports. */
export type MealId = number;

/**
 * The highest id an admin upsert may choose (2^31 - 1, an int32 in any app). Imports number their new meals above
 * the highest id in use, up to 2^53 - 1, so no chosen id can use up the ids that later imports need.
 */
export const maxChosenMealId = 2_147_483_647;

/** What a menu says about a meal beyond its name: all optional, so a bare meal is still a meal. */
export interface MealDetails {
  /** The menu line or counter, e.g. "Hauptgericht" or "Ausgabe A"; null when the menu has none. */
  readonly category: string | null;
  /** Ingredients, allergens, labels, in the menu's order, as the menu wrote them. */
  readonly notes: readonly string[];
  /**
   * What the meal is known to carry, as codes of the label vocabulary with their parents, sorted (see withParents):
   * given by the writer, or read from the notes by an import.
   */
  readonly labels: readonly LabelCode[];
  readonly prices: MealPrices;
  /** The canteen that serves it; `default` when a writer names none. */
  readonly canteenId: CanteenId;
  /**
   * Where it stands in its day's menu (0 first): menus list a day's meals by serving time, then position, then id.
   * An import numbers the meals in feed order (so by category, as feeds group them); an upsert by batch order.
   */
  readonly position: number;
}

/**
 * A meal. The details may be left out when a meal is written (they then mean: no category, no notes, no prices);
 * every repository answers them filled in.
 */
export interface Meal extends Partial<MealDetails> {
  readonly id: MealId;
  readonly name: string;
  readonly servedAt: Date;
  readonly rateable: boolean;
}

/** A meal with every detail present, as repositories answer it. */
export type DetailedMeal = Meal & MealDetails;

export const noMealDetails: MealDetails = Object.freeze({
  category: null,
  notes: Object.freeze([]) as readonly string[],
  labels: Object.freeze([]) as readonly LabelCode[],
  prices: Object.freeze({}),
  canteenId: defaultCanteenId,
  position: 0,
});

/** The meal with its absent details filled in by their defaults; a fresh object with fresh arrays and dates. */
export function withMealDetails(meal: Meal): DetailedMeal {
  return {
    id: meal.id,
    name: meal.name,
    servedAt: new Date(meal.servedAt.getTime()),
    rateable: meal.rateable,
    category: meal.category ?? null,
    notes: [...(meal.notes ?? [])],
    labels: [...(meal.labels ?? [])],
    prices: { ...meal.prices },
    canteenId: meal.canteenId ?? defaultCanteenId,
    position: meal.position ?? 0,
  };
}

export function isMealId(value: unknown): value is MealId {
  return Number.isSafeInteger(value) && (value as number) > 0;
}
