import type {
  AdminCanteensData,
  AuditData,
  AuditEntryData,
  AuditExportQuery,
  ArchivedCanteenData,
  AversionData,
  AversionsData,
  LabelData,
  LabelsData,
  PreferencesBody,
  PreferencesData,
  CanteenBody,
  CanteenData,
  CanteensData,
  DishData,
  DayClosedData,
  DishSearchData,
  FeedsData,
  FeedSummaryData,
  LiveMealStatsData,
  LiveSnapshotMealData,
  LiveAvailabilityData,
  AvailabilityStatusData,
  AvailabilityData,
  MergeDishesBody,
  WithdrawMealData,
  ErrorCode,
  MarkMealBody,
  MarkMealData,
  MealData,
  MealPageData,
  MealsData,
  PersonalStatesData,
  PublicMealsData,
  RankedDishData,
  RankedMealData,
  RankingsData,
  RateMealBody,
  RateMealData,
  UpcomingData,
  UpsertMealsBody,
  UpsertMealsData,
  UserDataErasureData,
  UserDataExportData,
  AccessData,
  DeletedWebhookData,
  DeliveriesData,
  DeliveryData,
  FavouritesUpcomingPayload,
  MealWithdrawnPayload,
  MealAvailabilityChangedPayload,
  MenuPublishedPayload,
  WebhookBody,
  WebhookData,
  WebhookPayload,
  WebhooksData,
  PushStatusData,
  PushSubscriptionBody,
  PushSubscriptionData,
  PushSubscriptionsData,
  TestPushData,
  NotificationSettingsBody,
  NotificationSettingsData,
} from '@canteen-meals/http-contract';
import type { Static } from '@sinclair/typebox';

// The types of the wire, from the very schemas that the server validates with: a change there is a compile error here.
export type MarkMealRequest = Static<typeof MarkMealBody>;
export type MarkMealResult = Static<typeof MarkMealData>;
export type RateMealRequest = Static<typeof RateMealBody>;
export type RatingStatistics = Static<typeof RateMealData>;
export type UpsertMealsRequest = Static<typeof UpsertMealsBody>;
export type UpsertMealsResult = Static<typeof UpsertMealsData>;
export type MealView = Static<typeof MealData>;
export type MealsResult = Static<typeof MealsData>;
/** The public menu: what `getMeals` answers for a canteen's days to a client without a token. */
export type PublicMealsResult = Static<typeof PublicMealsData>;
/** The caller's own part of a menu: the meals they marked or rated, with their marking and rating. */
export type PersonalStatesResult = Static<typeof PersonalStatesData>;
export type MealPage = Static<typeof MealPageData>;
/** `GET /me/upcoming`: how many days, today included (1 to 14; 7 when absent). */
export interface UpcomingRequest extends LabelSelection {
  readonly days?: number;
}

/**
 * Which meals a menu read answers (see GET /labels): `without` leaves out meals carrying any of the codes (a parent
 * covers its sub-kinds), `only` keeps meals carrying all of them; `placeholders` answers "Kein Angebot" entries too;
 * on personalized reads `all` ignores the caller's preferences and `hide: 'avoided'` leaves out avoided dishes.
 */
export interface LabelSelection {
  readonly without?: readonly string[];
  readonly only?: readonly string[];
  readonly placeholders?: boolean;
  readonly all?: boolean;
  readonly hide?: 'avoided';
}

export type LabelsResult = Static<typeof LabelsData>;
export type Label = Static<typeof LabelData>;
export type Preferences = Static<typeof PreferencesData>;
export type PreferencesRequest = Static<typeof PreferencesBody>;
export type Aversion = Static<typeof AversionData>;
export type AversionsResult = Static<typeof AversionsData>;
/** The coming servings of the caller's favourite dishes: menu items with their canteen's `date`, and `truncated`. */
export type UpcomingResult = Static<typeof UpcomingData>;
export type UserDataExport = Static<typeof UserDataExportData>;
/** `GET /me/access`: the token's user and what it may do here, at every canteen (`global`) and per canteen. */
export type Access = Static<typeof AccessData>;
export type UserDataErasure = Static<typeof UserDataErasureData>;
export type Canteen = Static<typeof CanteenData>;
export type CanteensResult = Static<typeof CanteensData>;
/** `DELETE /admin/canteens/{canteen_id}`: the canteen archived, and since when. */
export type ArchivedCanteen = Static<typeof ArchivedCanteenData>;
/** `PUT /admin/canteens/{canteen_id}/days/{date}`: the day closed or open again, and the meals the closing withdrew. */
export type DayClosedResult = Static<typeof DayClosedData>;
/**
 * `GET /admin/canteens`: every canteen with its feeds, archived ones with their `archived_at` (null for the others).
 */
export type AdminCanteensResult = Static<typeof AdminCanteensData>;
export type Dish = Static<typeof DishData>;
export type FeedSummary = Static<typeof FeedSummaryData>;
export type FeedsResult = Static<typeof FeedsData>;
export type DishSearchResult = Static<typeof DishSearchData>;
export type MergeDishesRequest = Static<typeof MergeDishesBody>;
export type WithdrawMealResult = Static<typeof WithdrawMealData>;
/** `PUT /kitchen/meals/{meal_id}/availability`. */
export type AvailabilityStatus = Static<typeof AvailabilityStatusData>;
export type MealAvailabilityResult = Static<typeof AvailabilityData>;
/**
 * `GET /canteens/{canteen_id}/dishes`: `q` any part of a name; a page as for the meal lists; `without` and `only` keep
 * the dishes of which a serving passes that label filter.
 */
export interface DishSearchRequest extends PageRequest, Pick<LabelSelection, 'without' | 'only'> {
  readonly q: string;
}
/** PUT /admin/canteens/{canteen_id}: every field but the id, which the path names. */
export type SaveCanteenRequest = Static<typeof CanteenBody>;

// Query strings are text on the wire (the server matches each against a pattern); the client takes numbers.
/**
 * `GET /meals`: a list of ids (up to 100); or a calendar day `YYYY-MM-DD` (of one canteen, or of every canteen, each on
 * its own clocks); or the days `from` to `to` (at most 14) of one canteen.
 */
export type MealsQuery = LabelSelection &
  (
    | { readonly ids: readonly number[]; readonly date?: never; readonly canteen?: never }
    /** Without `canteen`: every canteen's day, in pages (`cursor`: the previous page's `next_cursor`). */
    | { readonly date: string; readonly canteen?: string; readonly cursor?: string; readonly ids?: never }
    | {
        readonly canteen: string;
        readonly from: string;
        readonly to: string;
        readonly ids?: never;
        readonly date?: never;
      }
  );
/** The days of one canteen's menu: `date`, or `from` with `to`. */
export type MenuQuery = LabelSelection &
  (
    | {
        readonly canteen: string;
        readonly date: string;
        readonly from?: never;
        readonly to?: never;
        readonly ids?: never;
      }
    | {
        readonly canteen: string;
        readonly from: string;
        readonly to: string;
        readonly date?: never;
        readonly ids?: never;
      }
  );
/** `GET /admin/reports/ratings.csv`: one canteen's days `from` to `to` (`YYYY-MM-DD`, both included, up to 366). */
export interface RatingsReportRequest {
  readonly canteen: string;
  readonly from: string;
  readonly to: string;
}
/** A page of a list: `limit` 1 to 100 (20 when absent), `cursor` the previous page's `next_cursor`. */
export interface PageRequest {
  readonly limit?: number;
  readonly cursor?: string;
}

/** `GET /rankings`: the ranked meals of some days, or the canteen's ranked dishes; `scope` tells which. */
export type RankingsResult = Static<typeof RankingsData>;
export type RankedMeal = Static<typeof RankedMealData>;
export type RankedDish = Static<typeof RankedDishData>;
/**
 * `GET /rankings`: a canteen's meals of a day (`date`) or of the days `from` to `to` (at most 31), or with
 * `scope: 'dishes'` its dishes over all their servings; `by` is `rating` (default: by score, unrated last) or `marks`.
 */
export type RankingsQuery = { readonly canteen: string; readonly by?: 'rating' | 'marks' } & Pick<
  LabelSelection,
  'without' | 'only' | 'placeholders'
> &
  (
    | { readonly date: string; readonly from?: never; readonly to?: never; readonly scope?: 'meals' }
    | { readonly from: string; readonly to: string; readonly date?: never; readonly scope?: 'meals' }
    | { readonly scope: 'dishes'; readonly date?: never; readonly from?: never; readonly to?: never }
  );

/** Every code an error envelope can carry. */
export type MealsErrorCode = ErrorCode;

/** One meal's figures in a live stream (and those of its dish). */
export type LiveMealStats = Static<typeof LiveMealStatsData>;

/** An event of `liveStatistics`: every meal of the day, or one meal whose figures changed; `id` resumes after it. */
/** One meal of a `snapshot`: its figures and its availability. */
export type LiveSnapshotMeal = Static<typeof LiveSnapshotMealData>;
/** An `availability` event: the kitchen changed what is left of one meal. */
export type LiveAvailability = Static<typeof LiveAvailabilityData>;

export type LiveEvent =
  | { readonly type: 'snapshot'; readonly id: string; readonly meals: readonly LiveSnapshotMeal[] }
  | { readonly type: 'stats'; readonly id: string; readonly meal: LiveMealStats }
  | { readonly type: 'availability'; readonly id: string; readonly meal: LiveAvailability };

/** PUT /admin/webhooks/{webhook_id}: `secret` absent keeps the endpoint's own, or generates one for a new endpoint. */
export type SaveWebhookRequest = Static<typeof WebhookBody>;
/** An endpoint; `secret` only in the answer of the PUT that generated it. */
export type Webhook = Static<typeof WebhookData>;
export type WebhooksResult = Static<typeof WebhooksData>;
export type DeletedWebhook = Static<typeof DeletedWebhookData>;
export type Delivery = Static<typeof DeliveryData>;
export type DeliveriesResult = Static<typeof DeliveriesData>;

/** `GET /admin/audit`: who changed what, newest first; `next_cursor` null on the last page. */
export type AuditResult = Static<typeof AuditData>;
export type AuditEntry = Static<typeof AuditEntryData>;
/** The audit trail's filters: `canteen`, `actor` (a token subject), `action`, `from` and `to` (RFC 3339 instants). */
export type AuditFilters = Static<typeof AuditExportQuery>;
/** A page of the trail: its filters, `limit` 1 to 500 (50 when absent), `cursor` the previous page's `next_cursor`. */
export type AuditRequest = AuditFilters & { readonly limit?: number; readonly cursor?: string };

/** What a receiver gets (the body of a delivery), after verifyWebhook: branch on `type`. */
export type WebhookEvent = Static<typeof WebhookPayload>;
export type MenuPublishedEvent = Static<typeof MenuPublishedPayload>;
export type FavouritesUpcomingEvent = Static<typeof FavouritesUpcomingPayload>;
export type MealWithdrawnEvent = Static<typeof MealWithdrawnPayload>;
export type MealAvailabilityChangedEvent = Static<typeof MealAvailabilityChangedPayload>;

/** `GET /push`: whether the server sends Web Push, and its VAPID public key. */
export type PushStatus = Static<typeof PushStatusData>;
/** `PUT /me/push-subscriptions`: the browser's `PushSubscription.toJSON()`. */
export type PushSubscriptionRequest = Static<typeof PushSubscriptionBody>;
export type SavedPushSubscription = Static<typeof PushSubscriptionData>;
export type PushSubscriptionsResult = Static<typeof PushSubscriptionsData>;
export type TestPushResult = Static<typeof TestPushData>;
export type NotificationSettingsRequest = Static<typeof NotificationSettingsBody>;
export type NotificationSettings = Static<typeof NotificationSettingsData>;
