import type { MarkingRepository } from '../marking/marking-repository.js';
import type { MealCatalog } from '../meal/meal-catalog.js';
import type { MealSourceRepository } from '../menu/meal-source-repository.js';
import type { ServiceTime } from '../menu/menu.js';
import type { RatingRepository } from '../rating/rating-repository.js';
import type { MealQueries } from '../reading/meal-queries.js';
import type { Clock } from '../shared/clock.js';
import type { UserDataRepository } from '../user-data/user-data-repository.js';
import { EraseUserData } from './erase-user-data.js';
import { ExportUserData } from './export-user-data.js';
import { GetMeal } from './get-meal.js';
import { GetMeals } from './get-meals.js';
import { ImportMenu } from './import-menu.js';
import { ListMarkedMeals } from './list-marked-meals.js';
import { ListRatedMeals } from './list-rated-meals.js';
import { MarkMeal } from './mark-meal.js';
import { RateMeal } from './rate-meal.js';
import { UpsertMeals } from './upsert-meals.js';

/** Every port the use cases need: what an adapter package's `create...Adapters()` answers. */
export interface Repositories {
  readonly meals: MealCatalog;
  readonly markings: MarkingRepository;
  readonly ratings: RatingRepository;
  readonly queries: MealQueries;
  readonly userData: UserDataRepository;
  readonly mealSources: MealSourceRepository;
}

/** When the canteen serves: the days of menus and of `date` reads are days on its clocks. */
export type UseCaseOptions = ServiceTime;

/**
 * The one place that builds the use cases, for the server, every command-line tool, the demo seed and embedders:
 * whoever holds repositories and a clock gets the same operations with the same rules.
 */
export function createUseCases(repositories: Repositories, clock: Clock, serviceTime: UseCaseOptions) {
  const reading = { queries: repositories.queries, clock };
  const userData = { userData: repositories.userData, clock };
  return {
    markMeal: new MarkMeal(repositories),
    rateMeal: new RateMeal({ ratings: repositories.ratings, clock }),
    upsertMeals: new UpsertMeals(repositories),
    importMenu: new ImportMenu({ mealSources: repositories.mealSources, serviceTime }),
    getMeal: new GetMeal(reading),
    getMeals: new GetMeals({ ...reading, timeZone: serviceTime.timeZone }),
    listMarkedMeals: new ListMarkedMeals(reading),
    listRatedMeals: new ListRatedMeals(reading),
    exportUserData: new ExportUserData(userData),
    eraseUserData: new EraseUserData(userData),
  };
}

export type UseCases = ReturnType<typeof createUseCases>;
