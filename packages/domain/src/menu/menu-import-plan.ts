import { isMealId, withMealDetails, type DetailedMeal, type Meal, type MealId } from '../meal/meal.js';
import { accept, refuse, type Result } from '../shared/refusal.js';
import { placeholderLabel } from '../label/placeholder.js';
import type { MealSourceKey, MenuCandidate, SourcedMeal } from './meal-identity.js';

/** What an adapter reads, inside its transaction, before an import writes. */
export interface MenuImportSnapshot {
  /** The meals the source already has on the imported days, by key. */
  readonly known: ReadonlyMap<MealSourceKey, Meal>;
  /** Above every meal id in the catalog, whoever assigned it (an import or the admin upsert). */
  readonly nextMealId: MealId;
  /** Those of the known meals that are withdrawn. */
  readonly withdrawn?: ReadonlySet<MealId>;
  /**
   * For each of the scope's `servedIn` days, in their order: how many meals it holds that are not withdrawn and not
   * among `known` (the admin's meals, other sources' meals, this source's meals of other days).
   */
  readonly held: readonly number[];
}

/** What an import does: adds new meals (with their keys), updates changed ones, and leaves the rest. */
export interface MenuImportPlan {
  readonly added: readonly SourcedMeal[];
  readonly updated: readonly DetailedMeal[];
  readonly unchanged: readonly DetailedMeal[];
  /** Known on an imported day but no longer in the menu: kept as they are, ratings and markings included. */
  readonly missing: readonly DetailedMeal[];
  /**
   * Those of `missing` that are served after the import's instant and not withdrawn yet: the import withdraws them
   * (the feed took them off a coming day). A listed meal that was withdrawn is served again: it is in `updated`.
   */
  readonly withdrawn: readonly DetailedMeal[];
  /** The import's instant: what `withdrawn` is judged against, and when those meals were withdrawn. */
  readonly at: Date;
}

/** Every refusal of an import's decision: no meal id left, or a day that would hold too many meals. */
export type MenuImportRefusal = 'invalid_meal' | 'menu_day_full';

/**
 * Synchronous on purpose, like RatingDecision: it runs inside the adapter's transaction, which writes the plan it
 * accepts and nothing when it refuses.
 */
export type MenuImportDecision = (snapshot: MenuImportSnapshot) => Result<MenuImportPlan, MenuImportRefusal>;

/**
 * Pure: the id rule of imports. A key seen before keeps its meal id, and the meal takes the menu's name, time,
 * category, notes and prices (its rateable flag stays, as an admin may have set it). A new key gets the next free
 * id. Nothing ever changes which key a meal id belongs to, so a renamed meal is a new meal. Refuses only when the
 * meal ids are used up; candidates that repeat a key are a caller's bug and throw. The counts of the days are not its
 * business (see decideMenuDays).
 */
export function planMenuImport(
  candidates: readonly MenuCandidate[],
  snapshot: Omit<MenuImportSnapshot, 'held'>,
  now: Date,
): Result<MenuImportPlan, 'invalid_meal'> {
  const withdrawnBefore = snapshot.withdrawn ?? new Set<MealId>();
  const added: SourcedMeal[] = [];
  const updated: DetailedMeal[] = [];
  const unchanged: DetailedMeal[] = [];
  let nextId = snapshot.nextMealId;
  const listed = new Set<MealSourceKey>();
  for (const candidate of candidates) {
    if (listed.has(candidate.key)) throw new RangeError(`the candidates list ${candidate.key} twice`);
    listed.add(candidate.key);
    const existing = snapshot.known.get(candidate.key);
    if (existing === undefined) {
      if (!isMealId(nextId)) return refuse('invalid_meal', 'no meal id is left above the highest one in use');
      added.push({ ...candidate, meal: withMealDetails({ ...candidate.meal, id: nextId }) });
      nextId += 1;
      continue;
    }
    // A placeholder is never rateable, whatever the meal was before it was known to be one.
    const rateable = candidate.meal.labels?.includes(placeholderLabel) === true ? false : existing.rateable;
    const next = withMealDetails({ ...candidate.meal, id: existing.id, rateable });
    const same = sameMeal(withMealDetails(existing), next) && !withdrawnBefore.has(existing.id);
    (same ? unchanged : updated).push(next);
  }
  const missing = [...snapshot.known]
    .filter(([key]) => !listed.has(key))
    .map(([, meal]) => withMealDetails(meal))
    .sort((a, b) => a.id - b.id);
  const withdrawn = missing.filter((meal) => meal.servedAt > now && !withdrawnBefore.has(meal.id));
  return accept({ added, updated, unchanged, missing, withdrawn, at: now });
}

/**
 * The known and new meals of the import's scope that are served once the plan is written: added, updated (served
 * again if they were withdrawn), unchanged, and the missing ones that neither were nor are being withdrawn.
 */
export function servedAfterImport(
  plan: MenuImportPlan,
  withdrawnBefore: ReadonlySet<MealId> = new Set(),
): DetailedMeal[] {
  const withdrawing = new Set(plan.withdrawn.map((meal) => meal.id));
  const kept = plan.missing.filter((meal) => !withdrawnBefore.has(meal.id) && !withdrawing.has(meal.id));
  return [...plan.added.map(({ meal }) => meal), ...plan.updated, ...plan.unchanged, ...kept];
}

export function sameMeal(a: DetailedMeal, b: DetailedMeal): boolean {
  return (
    a.id === b.id &&
    a.name === b.name &&
    a.servedAt.getTime() === b.servedAt.getTime() &&
    a.rateable === b.rateable &&
    a.category === b.category &&
    a.canteenId === b.canteenId &&
    a.position === b.position &&
    a.notes.length === b.notes.length &&
    a.notes.every((note, index) => note === b.notes[index]) &&
    a.labels.length === b.labels.length &&
    a.labels.every((code, index) => code === b.labels[index]) &&
    samePrices(a.prices, b.prices)
  );
}

function samePrices(a: DetailedMeal['prices'], b: DetailedMeal['prices']): boolean {
  const roles = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof typeof a>;
  return [...roles].every((role) => a[role] === b[role]);
}
