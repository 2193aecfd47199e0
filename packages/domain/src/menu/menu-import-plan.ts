import { isMealId, withMealDetails, type DetailedMeal, type Meal, type MealId } from '../meal/meal.js';
import { DomainError } from '../shared/domain-error.js';
import type { MealSourceKey, MenuCandidate, SourcedMeal } from './meal-source.js';

/** What an adapter reads, inside its transaction, before an import writes. */
export interface MenuImportSnapshot {
  /** The meals the source already has on the imported days, by key. */
  readonly known: ReadonlyMap<MealSourceKey, Meal>;
  /** Above every meal id in the catalog, whoever assigned it (an import or the admin upsert). */
  readonly nextMealId: MealId;
}

/** What an import does: adds new meals (with their keys), updates changed ones, and leaves the rest. */
export interface MenuImportPlan {
  readonly added: readonly SourcedMeal[];
  readonly updated: readonly DetailedMeal[];
  readonly unchanged: readonly DetailedMeal[];
  /** Known on an imported day but no longer in the menu: kept as they are, ratings and markings included. */
  readonly missing: readonly DetailedMeal[];
}

/** Synchronous on purpose, like RatingDecision: it runs inside the adapter's transaction. */
export type MenuImportDecision = (snapshot: MenuImportSnapshot) => MenuImportPlan;

/**
 * Pure: the id rule of imports. A key seen before keeps its meal id, and the meal takes the menu's name, time,
 * category, notes and prices (its rateable flag stays, as an admin may have set it). A new key gets the next free
 * id. Nothing ever changes which key a meal id belongs to, so a renamed meal is a new meal.
 */
export function planMenuImport(candidates: readonly MenuCandidate[], snapshot: MenuImportSnapshot): MenuImportPlan {
  const added: SourcedMeal[] = [];
  const updated: DetailedMeal[] = [];
  const unchanged: DetailedMeal[] = [];
  let nextId = snapshot.nextMealId;
  const listed = new Set<MealSourceKey>();
  for (const candidate of candidates) {
    if (listed.has(candidate.key)) throw new DomainError('invalid_meal', `the menu lists ${candidate.key} twice`);
    listed.add(candidate.key);
    const existing = snapshot.known.get(candidate.key);
    if (existing === undefined) {
      if (!isMealId(nextId)) throw new DomainError('invalid_meal', 'no meal id is left above the highest one in use');
      added.push({ ...candidate, meal: withMealDetails({ ...candidate.meal, id: nextId }) });
      nextId += 1;
      continue;
    }
    const next = withMealDetails({ ...candidate.meal, id: existing.id, rateable: existing.rateable });
    (sameMeal(withMealDetails(existing), next) ? unchanged : updated).push(next);
  }
  const missing = [...snapshot.known]
    .filter(([key]) => !listed.has(key))
    .map(([, meal]) => withMealDetails(meal))
    .sort((a, b) => a.id - b.id);
  return { added, updated, unchanged, missing };
}

export function sameMeal(a: DetailedMeal, b: DetailedMeal): boolean {
  return (
    a.id === b.id &&
    a.name === b.name &&
    a.servedAt.getTime() === b.servedAt.getTime() &&
    a.rateable === b.rateable &&
    a.category === b.category &&
    a.notes.length === b.notes.length &&
    a.notes.every((note, index) => note === b.notes[index]) &&
    samePrices(a.prices, b.prices)
  );
}

function samePrices(a: DetailedMeal['prices'], b: DetailedMeal['prices']): boolean {
  const roles = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof typeof a>;
  return [...roles].every((role) => a[role] === b[role]);
}
