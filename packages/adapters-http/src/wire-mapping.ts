import {
  defaultCanteenId,
  canonicalPrice,
  type Canteen,
  type CanteenRecord,
  type StoredCanteen,
  type FeedSummary,
  type DishDetails,
  ratingStatistics,
  type ErasedUserData,
  type Meal,
  type MealReading,
  type MealPrices,
  type RateMealResult,
  type UserDataExport,
} from '@canteen-meals/domain';
import type {
  AdminCanteenData,
  CanteenBody,
  CanteenData,
  DishData,
  FeedSummaryData,
  RateMealData,
  UpsertMealsBody,
  UserDataErasureData,
  UserDataExportData,
} from '@canteen-meals/http-contract';
import type { Static } from '@sinclair/typebox';

// Domain values become wire objects here and nowhere else, and wire bodies become domain values: names such as
// meal_id and rating_personal stay at this edge.

// The meal answers are written in @canteen-meals/read-models (the kept menu answers and live events use them too).
export {
  availabilityFieldsOf,
  dishSummaryDataOf,
  distributionDataOf,
  mealDataOf,
  publicMealDataOf,
  upcomingDataOf,
} from '@canteen-meals/read-models';
import { dishSummaryDataOf, distributionDataOf, mealDataOf } from '@canteen-meals/read-models';

/** GET /dishes/{dish_id}: the dish, its names, the caller's own figures, and one page of servings. */
export function dishDataOf(
  details: DishDetails,
  servings: readonly MealReading[],
  nextCursor: string | null,
): DishData {
  const personal = details.personal;
  const own = personal === null ? null : ratingStatistics(personal.histogram);
  return {
    ...dishSummaryDataOf(details.dish),
    canteen_id: details.dish.canteenId,
    rating_distribution: distributionDataOf(details.dish.histogram),
    names: [...details.names],
    personal:
      personal === null || own === null
        ? null
        : {
            marked: personal.marked,
            rating_count: own.count,
            rating_average: own.average,
            rating_distribution: distributionDataOf(personal.histogram),
          },
    servings: servings.map(mealDataOf),
    next_cursor: nextCursor,
  };
}

/** A canteen as the canteen routes answer it; its feeds only for an admin (`withFeeds`). */
export function canteenDataOf(
  canteen: StoredCanteen,
  { withFeeds = false }: { readonly withFeeds?: boolean } = {},
): CanteenData {
  return {
    canteen_id: canteen.id,
    openmensa_id: canteen.openmensaId,
    name: canteen.name,
    timezone: canteen.timeZone,
    city: canteen.city,
    address: canteen.address,
    coordinates: canteen.coordinates === null ? null : { lat: canteen.coordinates.lat, lng: canteen.coordinates.lng },
    ...(withFeeds
      ? {
          feeds: canteen.feeds.map(({ name, url, schedule }) => ({ name, url, schedule })),
          note_labels: { ...canteen.noteLabels },
          placeholder_names: [...(canteen.placeholderNames ?? [])],
        }
      : {}),
  };
}

/** A feed with its last outcome, as the feed routes answer it. */
export function feedSummaryDataOf({ feed, state, nextRunAt }: FeedSummary): FeedSummaryData {
  const instant = (date: Date | null) => date?.toISOString() ?? null;
  return {
    name: feed.name,
    url: feed.url,
    schedule: feed.schedule,
    last_attempt_at: instant(state.lastAttemptAt),
    last_success_at: instant(state.lastSuccessAt),
    http_status: state.httpStatus,
    duration_ms: state.durationMs,
    outcome: state.outcome,
    counts: state.counts === null ? null : { ...state.counts },
    last_error: state.lastError,
    next_run_at: instant(nextRunAt),
  };
}

/** The body of PUT /admin/canteens/{canteen_id}: absent optional fields become null. */
export function canteenFromBody(id: string, body: CanteenBody): Canteen {
  return {
    id,
    name: body.name,
    timeZone: body.timezone,
    city: body.city ?? null,
    address: body.address ?? null,
    coordinates: body.coordinates ?? null,
    feeds: (body.feeds ?? []).map(({ name, url, schedule }) => ({ name, url, schedule })),
    ...(body.openmensa_id === undefined ? {} : { openmensaId: body.openmensa_id }),
    noteLabels: { ...body.note_labels },
    placeholderNames: [...(body.placeholder_names ?? [])],
  };
}

/** The answer of rate-meal: the meal's statistics after the change, and the caller's own rating. */
export function rateMealDataOf(result: RateMealResult): RateMealData {
  return {
    rating_count: result.count,
    rating_average: result.average,
    rating_median: result.median,
    rating_personal: result.personal,
  };
}

const servedMealOf = ({ id, name, servedAt }: { id: number; name: string; servedAt: Date }) => ({
  meal_id: id,
  name,
  served_at: servedAt.toISOString(),
});

/** Everything the service holds for one user (GDPR art. 15). */
export function userDataExportDataOf(data: UserDataExport): Static<typeof UserDataExportData> {
  return {
    user_id: data.userId,
    exported_at: data.exportedAt.toISOString(),
    markings: data.markings.map(servedMealOf),
    ratings: data.ratings.map(({ meal, rating }) => ({ ...servedMealOf(meal), rating })),
    ...(data.preferences === undefined
      ? {}
      : {
          preferences: { without: [...data.preferences.filter.without], only: [...data.preferences.filter.only] },
          aversions: data.preferences.aversions.map(({ dishId, since }) => ({
            dish_id: dishId,
            since: since.toISOString(),
          })),
        }),
    ...(data.push === undefined
      ? {}
      : {
          push_subscriptions: data.push.subscriptions.map((subscription) => ({
            id: subscription.id,
            endpoint: subscription.endpoint,
            keys: { p256dh: subscription.p256dh, auth: subscription.auth },
            expiration_time: subscription.expirationTime?.toISOString() ?? null,
            created_at: subscription.createdAt.toISOString(),
          })),
          notifications: {
            favourites_today: data.push.settings.favouritesToday,
            sold_out: data.push.settings.soldOut,
            language: data.push.settings.language,
          },
        }),
  };
}

export function erasureDataOf(erased: ErasedUserData): Static<typeof UserDataErasureData> {
  return {
    markings_erased: erased.markings,
    ratings_erased: erased.ratings,
    ...(erased.preferences === undefined ? {} : { preferences_erased: erased.preferences }),
    ...(erased.aversions === undefined ? {} : { aversions_erased: erased.aversions }),
    ...(erased.pushSubscriptions === undefined ? {} : { push_subscriptions_erased: erased.pushSubscriptions }),
    ...(erased.notificationSettings === undefined ? {} : { notification_settings_erased: erased.notificationSettings }),
  };
}

/** The closed days of an upsert body; a day without canteen_id is the default canteen's. */
export function closedDaysFromUpsertBody(
  body: UpsertMealsBody,
): { readonly canteenId: string; readonly date: string }[] {
  return (body.closed_days ?? []).map((day) => ({ canteenId: day.canteen_id ?? defaultCanteenId, date: day.date }));
}

export function mealsFromUpsertBody(body: UpsertMealsBody): Meal[] {
  return body.meals.map((meal) => ({
    id: meal.meal_id,
    name: meal.name,
    servedAt: new Date(meal.served_at),
    rateable: meal.rateable,
    category: meal.category ?? null,
    notes: meal.notes ?? [],
    prices: canonicalPrices(meal.prices ?? {}),
    ...(meal.canteen_id === undefined ? {} : { canteenId: meal.canteen_id }),
    ...(meal.labels === undefined ? {} : { labels: meal.labels }),
  }));
}

/** The schema's pattern guarantees that every amount has a canonical form. */
function canonicalPrices(prices: Readonly<Record<string, string>>): MealPrices {
  return Object.fromEntries(Object.entries(prices).map(([role, amount]) => [role, canonicalPrice(amount) ?? amount]));
}

/** A canteen in the admin's list (GET /admin/canteens): with its feeds and `archived_at`. */
export function adminCanteenDataOf(canteen: CanteenRecord): AdminCanteenData {
  return {
    // An admin's view: with the canteen's own note spellings and placeholder names, as the admin's PUT answers them.
    ...canteenDataOf(canteen, { withFeeds: true }),
    feeds: canteen.feeds.map(({ name, url, schedule }) => ({ name, url, schedule })),
    archived_at: canteen.archivedAt?.toISOString() ?? null,
  };
}
