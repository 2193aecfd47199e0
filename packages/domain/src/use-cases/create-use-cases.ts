import type { PushStore } from '../push/push-ports.js';
import type { AvailabilityRepository } from '../availability/availability-repository.js';
import type { PreferenceRepository } from '../preference/preference-repository.js';
import { AvoidDish } from './avoid-dish.js';
import { GetPreferences } from './get-preferences.js';
import { ListAversions } from './list-aversions.js';
import { SavePreferences } from './save-preferences.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import type { DishQueries } from '../dish/dish-queries.js';
import { anyFeedUrl, type FeedState, type FeedUrlCheck, type ScheduleCheck } from '../feed/canteen-feed.js';
import type { RunBounds } from '../shared/bounded-runs.js';
import {
  FeedSourceError,
  type FeedSource,
  type FeedStateRepository,
  type MenuFeedReader,
  type NextRun,
} from '../feed/feed-ports.js';
import type { DishRepository } from '../dish/dish-repository.js';
import type { MarkingRepository } from '../marking/marking-repository.js';
import type { MealCatalog } from '../meal/meal-catalog.js';
import type { ClosedDayRepository } from '../menu/closed-day-repository.js';
import type { MealSourceRepository } from '../menu/meal-source-repository.js';
import type { ServiceTime } from '../menu/menu.js';
import type { RatingRepository } from '../rating/rating-repository.js';
import type { MealQueries } from '../reading/meal-queries.js';
import type { Clock } from '../shared/clock.js';
import type { UserDataRepository } from '../user-data/user-data-repository.js';
import type { WebhookOutbox, WebhookRepository } from '../webhook/webhook-ports.js';
import { defaultWebhookRetryBaseMs } from '../webhook/retry-schedule.js';
import type { NewWebhookSecret, WebhookSender, WebhookUrlCheck } from '../webhook/webhook-delivery-ports.js';
import { anyWebhookUrl } from '../webhook/webhook-validation.js';
import { defaultDeliverySettings, DeliverWebhooks, type DeliverySettings } from './deliver-webhooks.js';
import { DeleteWebhook } from './delete-webhook.js';
import { GetWebhook } from './get-webhook.js';
import { ListDeliveries } from './list-deliveries.js';
import { ListWebhooks } from './list-webhooks.js';
import { SaveWebhook } from './save-webhook.js';
import { ArchiveCanteen } from './archive-canteen.js';
import { GetCanteen } from './get-canteen.js';
import { ListCanteens } from './list-canteens.js';
import { ListCanteensWithArchived } from './list-canteens-with-archived.js';
import { SaveCanteen } from './save-canteen.js';
import { GetDish } from './get-dish.js';
import { ListDishServings } from './list-dish-servings.js';
import { MergeDishes } from './merge-dishes.js';
import { SearchDishes } from './search-dishes.js';
import { EraseUserData } from './erase-user-data.js';
import { defaultFeedRunBounds, defaultScheduledFetchDeadlineMs, RunDueFeeds } from './run-due-feeds.js';
import { ListFeeds } from './list-feeds.js';
import { RunFeed } from './run-feed.js';
import { WithdrawMeal } from './withdraw-meal.js';
import { SetMealAvailability } from './set-meal-availability.js';
import { ExportUserData } from './export-user-data.js';
import { GetMeal } from './get-meal.js';
import { GetMeals } from './get-meals.js';
import { GetCanteenDay } from './get-canteen-day.js';
import { GetPersonalPart } from './get-personal-part.js';
import { GetPublicMenu } from './get-public-menu.js';
import { GetRatingsReport } from './get-ratings-report.js';
import { GetUpcomingFavourites } from './get-upcoming-favourites.js';
import { MenuChangeHub } from '../reading/menu-change.js';
import { ImportMenu } from './import-menu.js';
import { FindCanteenByOpenMensaId } from './find-canteen-by-openmensa-id.js';
import { GetMenuDays } from './get-menu-days.js';
import { SetDayClosed } from './set-day-closed.js';
import { ListMarkedMeals } from './list-marked-meals.js';
import { ListRatedMeals } from './list-rated-meals.js';
import { MarkMeal } from './mark-meal.js';
import { RankDishes } from './rank-dishes.js';
import { RankMeals } from './rank-meals.js';
import { RateMeal } from './rate-meal.js';
import { UpsertMeals } from './upsert-meals.js';
import type { AuditLog } from '../audit/audit-log.js';
import { ListAuditEntries } from './list-audit-entries.js';
import { DeleteExpiredAuditEntries, defaultAuditRetentionDays } from './delete-expired-audit-entries.js';
import { LocateMeals } from '../access/locate-meals.js';

/** Every port the use cases need: what an adapter package's `create...Adapters()` answers. */
export interface Repositories {
  readonly meals: MealCatalog;
  readonly markings: MarkingRepository;
  readonly ratings: RatingRepository;
  readonly queries: MealQueries;
  readonly userData: UserDataRepository;
  readonly mealSources: MealSourceRepository;
  readonly canteens: CanteenRepository;
  readonly dishes: DishRepository;
  readonly dishQueries: DishQueries;
  readonly feedStates: FeedStateRepository;
  /** The admin's webhook endpoints. */
  readonly webhooks: WebhookRepository;
  /** The events the menu writers record, on their way to the endpoints. */
  readonly outbox: WebhookOutbox;
  /** The days the menus say a canteen is closed. */
  readonly closedDays: ClosedDayRepository;
  /** What each person keeps about what they eat: label filter and avoided dishes. */
  readonly preferences: PreferenceRepository;
  /** How much of each serving is left, as the kitchen says. */
  readonly availability: AvailabilityRepository;
  /**
   * Web Push's subscriptions, settings and outbox, where the adapter keeps them: in the export, gone with an erasure.
   */
  readonly pushStore?: PushStore;
  /** The audit trail: the repositories above append to it; absent, nothing reads it (an empty trail). */
  readonly audit?: AuditLog;
}

/** The outside world of menu feeds: the network, the feed format, and cron (adapters; the domain has none of them). */
export interface FeedPorts {
  readonly feedSource: FeedSource;
  readonly feedReader: MenuFeedReader;
  readonly nextRun: NextRun;
  readonly checkSchedule: ScheduleCheck;
  /** The outbound address rule, as far as it can be checked on saving a canteen's feeds. */
  readonly checkUrl: FeedUrlCheck;
  /** How many feeds a scheduled run fetches at once, in all and from one host. */
  readonly runBounds: RunBounds;
  /** A scheduled fetch under way this long after its start is ended (at the next run, on the clock). */
  readonly scheduledFetchDeadlineMs: number;
  /** Told the outcome of every fetch, scheduled or asked for (logs, metrics). */
  readonly onFeedRan: (state: FeedState) => void;
}

/** Without feed adapters: every fetch fails saying so, and no schedule ever fires. */
const noFeedPorts: FeedPorts = {
  feedSource: { fetch: async () => Promise.reject(new FeedSourceError('no feed source is configured')) },
  feedReader: {
    read: () => {
      throw new Error('no feed reader is configured');
    },
  },
  nextRun: () => null,
  checkSchedule: (schedule) => (schedule.trim() === '' ? 'must not be blank' : undefined),
  checkUrl: anyFeedUrl,
  runBounds: defaultFeedRunBounds,
  scheduledFetchDeadlineMs: defaultScheduledFetchDeadlineMs,
  onFeedRan: () => {},
};

/** The outside world of webhooks: the network and the signature, the address rule, randomness; and the schedule. */
export interface WebhookPorts {
  readonly sender: WebhookSender;
  /** Generates the secret of a PUT without one. */
  readonly newSecret: NewWebhookSecret;
  /** The outbound address rule, as far as it can be checked on saving. */
  readonly checkUrl: WebhookUrlCheck;
  /** Retry base, jitter, concurrency, lease and the bounds of one pass: see DeliverySettings. */
  readonly delivery: Partial<DeliverySettings>;
}

/** Without webhook adapters: every attempt fails saying so, and a PUT without a secret is a bug to be told. */
const noWebhookPorts: WebhookPorts = {
  sender: { send: async () => ({ delivered: false, status: null, error: 'no webhook sender is configured' }) },
  newSecret: () => {
    throw new Error('no webhook secret generator is configured');
  },
  checkUrl: anyWebhookUrl,
  delivery: {},
};

/**
 * When canteens serve: imported meals are served at `start` on their canteen's clocks. `timeZone` is the zone of the
 * `default` canteen when an adapter creates it; every other canteen carries its own.
 */
export type UseCaseOptions = ServiceTime & {
  /**
   * Lets others' work (a server's requests) run between the transactions of a long import; a server passes the next
   * turn of its event loop. Absent: a resolved promise.
   */
  readonly letOthersRun?: () => Promise<void>;
  /** How many days the audit trail keeps its entries (AUDIT_RETENTION_DAYS); absent: 365. */
  readonly auditRetentionDays?: number;
};

/**
 * The one place that builds the use cases, for the server, every command-line tool, the demo seed and embedders:
 * whoever holds repositories and a clock gets the same operations with the same rules.
 */
export function createUseCases(
  repositories: Repositories,
  clock: Clock,
  serviceTime: UseCaseOptions,
  feedPorts: Partial<FeedPorts> = {},
  webhookPorts: Partial<WebhookPorts> = {},
) {
  const feeds = { ...noFeedPorts, ...feedPorts };
  const webhooks = { ...noWebhookPorts, ...webhookPorts };
  const delivery: DeliverySettings = {
    ...defaultDeliverySettings,
    baseMs: defaultWebhookRetryBaseMs,
    // Jitter needs no cryptographic randomness (secrets come through newSecret); tests inject their own.
    random: Math.random,
    ...webhooks.delivery,
  };
  // Every write that changes what menus show tells it here, after it committed: caches and live streams subscribe.
  const menuChanges = new MenuChangeHub();
  const announce = menuChanges.publish;
  const importMenu = new ImportMenu({
    ...repositories,
    clock,
    serviceStart: serviceTime.start,
    announce,
    ...(serviceTime.letOthersRun === undefined ? {} : { letOthersRun: serviceTime.letOthersRun }),
  });
  const runFeed = new RunFeed({ ...repositories, ...feeds, onRan: feeds.onFeedRan, importMenu, clock });
  const reading = { queries: repositories.queries, clock };
  const userData = {
    userData: repositories.userData,
    preferences: repositories.preferences,
    clock,
    ...(repositories.pushStore === undefined ? {} : { push: repositories.pushStore }),
  };
  const menus = { ...reading, canteens: repositories.canteens };
  return {
    menuChanges,
    markMeal: new MarkMeal(repositories),
    rateMeal: new RateMeal({ ratings: repositories.ratings, clock, announce }),
    upsertMeals: new UpsertMeals({ ...repositories, clock, announce }),
    importMenu,
    getMeal: new GetMeal(reading),
    locateMeals: new LocateMeals({ meals: repositories.meals }),
    getMeals: new GetMeals(menus),
    getPublicMenu: new GetPublicMenu({ ...menus, closedDays: repositories.closedDays }),
    getPersonalPart: new GetPersonalPart(menus),
    getCanteenDay: new GetCanteenDay(menus),
    getRatingsReport: new GetRatingsReport(menus),
    rankMeals: new RankMeals(menus),
    rankDishes: new RankDishes({ ...repositories, clock }),
    saveCanteen: new SaveCanteen({
      canteens: repositories.canteens,
      feedStates: repositories.feedStates,
      checkSchedule: feeds.checkSchedule,
      checkFeedUrl: feeds.checkUrl,
      announce,
      clock,
    }),
    runFeed,
    runDueFeeds: new RunDueFeeds({
      ...repositories,
      runFeed,
      nextRun: feeds.nextRun,
      clock,
      bounds: feeds.runBounds,
      deadlineMs: feeds.scheduledFetchDeadlineMs,
    }),
    listFeeds: new ListFeeds({ ...repositories, nextRun: feeds.nextRun, clock }),
    getCanteen: new GetCanteen(repositories),
    listCanteens: new ListCanteens(repositories),
    archiveCanteen: new ArchiveCanteen({ canteens: repositories.canteens, clock, announce }),
    listCanteensWithArchived: new ListCanteensWithArchived(repositories),
    withdrawMeal: new WithdrawMeal({ meals: repositories.meals, clock, announce }),
    setMealAvailability: new SetMealAvailability({ availability: repositories.availability, clock, announce }),
    setDayClosed: new SetDayClosed({ ...repositories, clock, announce }),
    getMenuDays: new GetMenuDays({ ...repositories, clock }),
    findCanteenByOpenMensaId: new FindCanteenByOpenMensaId(repositories),
    getDish: new GetDish({ dishQueries: repositories.dishQueries, clock }),
    listDishServings: new ListDishServings({ dishQueries: repositories.dishQueries, clock }),
    searchDishes: new SearchDishes({ ...repositories, clock }),
    savePreferences: new SavePreferences(repositories),
    getPreferences: new GetPreferences(repositories),
    avoidDish: new AvoidDish({ ...repositories, clock }),
    listAversions: new ListAversions(repositories),
    mergeDishes: new MergeDishes({ ...repositories, clock, announce }),
    listMarkedMeals: new ListMarkedMeals(reading),
    getUpcomingFavourites: new GetUpcomingFavourites(menus),
    listRatedMeals: new ListRatedMeals(reading),
    exportUserData: new ExportUserData(userData),
    eraseUserData: new EraseUserData({ ...userData, announce }),
    saveWebhook: new SaveWebhook({
      ...repositories,
      clock,
      newSecret: webhooks.newSecret,
      checkUrl: webhooks.checkUrl,
    }),
    getWebhook: new GetWebhook(repositories),
    listWebhooks: new ListWebhooks(repositories),
    deleteWebhook: new DeleteWebhook({ ...repositories, clock }),
    listAuditEntries: new ListAuditEntries({ audit: repositories.audit ?? emptyAuditLog }),
    deleteExpiredAuditEntries: new DeleteExpiredAuditEntries({
      audit: repositories.audit ?? emptyAuditLog,
      clock,
      retentionDays: serviceTime.auditRetentionDays ?? defaultAuditRetentionDays,
    }),
    listDeliveries: new ListDeliveries(repositories),
    deliverWebhooks: new DeliverWebhooks({ ...repositories, sender: webhooks.sender, clock, settings: delivery }),
  };
}

export type UseCases = ReturnType<typeof createUseCases>;

/** The trail of repositories that keep none: nothing to read, nothing to forget. */
const emptyAuditLog: AuditLog = {
  append: async () => {},
  list: async () => [],
  deleteOlderThan: async () => 0,
};
