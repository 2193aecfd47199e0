import { maxMealsPerImportWrite, type DetailedMeal, type MenuImportPlan } from '@canteen-meals/domain';

export interface MenuImportContext {
  readonly path: string;
  readonly version: string;
  readonly source: string;
  readonly days: number;
  readonly closedDays: number;
  readonly serviceStart: string;
  readonly timeZone: string;
}

/** What `pnpm meals:import <feed.xml>` prints: the counts, then the meals added, updated and kept. */
export function menuImportReport(plan: MenuImportPlan, context: MenuImportContext): string[] {
  const { added, updated, unchanged, missing, withdrawn } = plan;
  const closed = context.closedDays > 0 ? `, ${context.closedDays} closed` : '';
  return [
    `meals:import: OpenMensa ${context.version} feed ${context.path}`,
    `  source "${context.source}", ${context.days} days${closed}, served at ${context.serviceStart} ${context.timeZone}`,
    `  added ${added.length}, updated ${updated.length}, unchanged ${unchanged.length} (${transactions(added.length + updated.length + unchanged.length)})`,
    ...added.map(({ servedOn, meal }) => `  + #${meal.id} ${servedOn} ${describe(meal)}`),
    ...updated.map((meal) => `  ~ #${meal.id} ${describe(meal)}`),
    ...(missing.length > 0 ? [`  kept ${missing.length} meals that the feed no longer lists on their day:`] : []),
    ...missing.map((meal) => `  = #${meal.id} ${describe(meal)}`),
    ...(withdrawn.length > 0
      ? [`  withdrew ${withdrawn.length} of them, still to be served: they leave the menu`]
      : []),
    ...withdrawn.map((meal) => `  - #${meal.id} ${describe(meal)}`),
  ];
}

function describe(meal: DetailedMeal): string {
  return meal.category === null ? meal.name : `${meal.category}: ${meal.name}`;
}

/** ImportMenu writes a menu of up to maxMealsPerImportWrite meals in one transaction, a larger one day by day. */
function transactions(listed: number): string {
  return listed <= maxMealsPerImportWrite
    ? 'one transaction'
    : `whole days per transaction, at most ${maxMealsPerImportWrite} meals each`;
}
