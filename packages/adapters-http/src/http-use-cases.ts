import type { canteenLocatorOver } from './auth/canteen-locator.js';
import type { AuditRoutesOptions } from './routes/audit-routes.js';
import type { CanteenArchiveRoutesOptions } from './routes/canteen-archive-routes.js';
import type { CanteenRoutesOptions } from './routes/canteen-routes.js';
import type { ClosedDayRoutesOptions } from './routes/closed-day-routes.js';
import type { DishRoutesOptions } from './routes/dish-routes.js';
import type { FeedRoutesOptions } from './routes/feed-routes.js';
import type { KitchenRoutesOptions } from './routes/kitchen-routes.js';
import type { MealRoutesOptions } from './routes/meal-routes.js';
import type { MenuRoutesOptions } from './routes/menu-routes.js';
import type { PreferenceRoutesOptions } from './routes/preference-routes.js';
import type { RankingRoutesOptions } from './routes/ranking-routes.js';
import type { MealReadRouteOptions, ReadRoutesOptions } from './routes/read-routes.js';
import type { ReportRoutesOptions } from './routes/report-routes.js';
import type { UpcomingRoutesOptions } from './routes/upcoming-routes.js';
import type { UserDataRoutesOptions } from './routes/user-data-routes.js';

/** The use cases of the app's plugins, one group per plugin: each plugin receives its group and nothing else. */
export interface HttpUseCases {
  /** Mark, rate, upsert meals (and close days in an upsert). */
  readonly meals: MealRoutesOptions;
  /** The caller's marked and rated meals. */
  readonly reads: Omit<ReadRoutesOptions, 'cursorSecret'>;
  /** One meal by id. */
  readonly meal: MealReadRouteOptions;
  /** The menus, public and personalized. */
  readonly menus: Omit<MenuRoutesOptions, 'clock' | 'menuCaching' | 'cursorSecret'>;
  readonly rankings: Omit<RankingRoutesOptions, 'menuCaching' | 'rankingSettings'>;
  readonly userData: UserDataRoutesOptions;
  readonly upcoming: UpcomingRoutesOptions;
  readonly preferences: Omit<PreferenceRoutesOptions, 'cursorSecret'>;
  /** The canteens, public and admin. */
  readonly canteens: CanteenRoutesOptions;
  readonly canteenArchive: CanteenArchiveRoutesOptions;
  readonly closedDays: ClosedDayRoutesOptions;
  /** The dishes, public and admin. */
  readonly dishes: Omit<DishRoutesOptions, 'cursorSecret'>;
  readonly kitchen: KitchenRoutesOptions;
  readonly feeds: FeedRoutesOptions;
  readonly reports: ReportRoutesOptions;
  /** The audit trail. */
  readonly audit: Omit<AuditRoutesOptions, 'cursorSecret'>;
  /** What the staff routes' access policy reads to find the canteen of a meal, a dish or a canteen id. */
  readonly access: Parameters<typeof canteenLocatorOver>[0];
}

type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

/** Every use case some plugin calls: what the domain's createUseCases gives, among others. */
export type AllHttpUseCases = Intersection<HttpUseCases[keyof HttpUseCases]>;

/** The groups of `HttpUseCases` out of one object holding them all (e.g. the domain's createUseCases). */
export function httpUseCasesOf(all: AllHttpUseCases): HttpUseCases {
  return {
    meals: {
      markMeal: all.markMeal,
      rateMeal: all.rateMeal,
      upsertMeals: all.upsertMeals,
      setDayClosed: all.setDayClosed,
    },
    reads: { listMarkedMeals: all.listMarkedMeals, listRatedMeals: all.listRatedMeals },
    meal: { getMeal: all.getMeal },
    menus: {
      getMeals: all.getMeals,
      getPublicMenu: all.getPublicMenu,
      getPersonalPart: all.getPersonalPart,
      getCanteenDay: all.getCanteenDay,
      getPreferences: all.getPreferences,
      menuChanges: all.menuChanges,
    },
    rankings: { rankMeals: all.rankMeals, rankDishes: all.rankDishes },
    userData: { exportUserData: all.exportUserData, eraseUserData: all.eraseUserData, listCanteens: all.listCanteens },
    upcoming: { getUpcomingFavourites: all.getUpcomingFavourites, getPreferences: all.getPreferences },
    preferences: {
      savePreferences: all.savePreferences,
      getPreferences: all.getPreferences,
      avoidDish: all.avoidDish,
      listAversions: all.listAversions,
    },
    canteens: { saveCanteen: all.saveCanteen, getCanteen: all.getCanteen, listCanteens: all.listCanteens },
    canteenArchive: { archiveCanteen: all.archiveCanteen, listCanteensWithArchived: all.listCanteensWithArchived },
    closedDays: { setDayClosed: all.setDayClosed },
    dishes: {
      getDish: all.getDish,
      listDishServings: all.listDishServings,
      searchDishes: all.searchDishes,
      mergeDishes: all.mergeDishes,
      withdrawMeal: all.withdrawMeal,
    },
    kitchen: { setMealAvailability: all.setMealAvailability },
    feeds: { listFeeds: all.listFeeds, runFeed: all.runFeed },
    reports: { getRatingsReport: all.getRatingsReport },
    audit: { listAuditEntries: all.listAuditEntries },
    access: {
      locateMeals: all.locateMeals,
      getDish: all.getDish,
      listCanteensWithArchived: all.listCanteensWithArchived,
    },
  };
}
