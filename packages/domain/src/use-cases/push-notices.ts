import { localDayOf, localDayRange } from '../calendar/local-day.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import type { StoredCanteen } from '../canteen/canteen.js';
import type { MealId } from '../meal/meal.js';
import { instantOfLocalTime, type LocalTime } from '../menu/local-time.js';
import type { PreferenceRepository } from '../preference/preference-repository.js';
import type { UserId } from '../shared/user-id.js';
import { wantedServing } from '../webhook/favourites-events.js';
import type { NotificationSettingsRepository } from '../push/notification-settings.js';
import { digestPayload, payloadJson, soldOutPayload, topicOf } from '../push/push-messages.js';
import type {
  MarkedServing,
  PushAudience,
  PushEntry,
  PushOutbox,
  PushSubscriptionRepository,
} from '../push/push-ports.js';

/** A digest that could not start within this long after its time is dropped: lunch is over. */
export const digestLateLimitMs = 2 * 60 * 60 * 1000;

interface NoticeDeps {
  readonly canteens: CanteenRepository;
  readonly audience: PushAudience;
  readonly preferences: PreferenceRepository;
  readonly notificationSettings: NotificationSettingsRepository;
  readonly pushSubscriptions: PushSubscriptionRepository;
  readonly outbox: PushOutbox;
}

/** One entry per subscription of each person, the payload in their language, until the end of the canteen's day. */
async function entriesFor(
  deps: NoticeDeps,
  payloads: ReadonlyMap<UserId, (language: 'en' | 'de') => string>,
  tag: string,
  at: Date,
  until: Date,
): Promise<PushEntry[]> {
  const users = [...payloads.keys()];
  const subscriptions = await deps.pushSubscriptions.subscriptionsOfUsers(users);
  const settings = await deps.notificationSettings.settingsOfUsers(users);
  return subscriptions.map((subscription) => ({
    subscriptionId: subscription.id,
    payload: payloads.get(subscription.userId)!(settings.get(subscription.userId)?.language ?? 'en'),
    topic: topicOf(tag),
    dueAt: at,
    expiresAt: until,
  }));
}

export interface DigestRun {
  /** Canteen days whose digest this run wrote (once each, across instances). */
  readonly digests: number;
  /** Notifications it queued. */
  readonly queued: number;
  /** Canteen days whose time passed more than two hours ago without a digest: dropped. */
  readonly dropped: number;
}

/**
 * "Your favourites today": at `digestTime` on each canteen's clocks (the first run at or after it), one notification a
 * person and canteen day listing the servings of dishes they marked, after their label filter and aversions, to those
 * who want it (favourites today, on by default). Written to the outbox with the canteen day's key: once, whatever
 * restarts or instances run; a day whose time is more than two hours gone is not started any more.
 */
export class RunPushDigests {
  constructor(private readonly deps: NoticeDeps & { readonly digestTime: LocalTime }) {}

  async execute(now: Date): Promise<DigestRun> {
    let digests = 0;
    let queued = 0;
    let dropped = 0;
    for (const canteen of await this.deps.canteens.list()) {
      const today = localDayOf(now, canteen.timeZone);
      const due = instantOfLocalTime(today.date, this.deps.digestTime, canteen.timeZone);
      if (now < due) continue;
      if (now.getTime() - due.getTime() > digestLateLimitMs) {
        // Too late for today; counted once it is clear no run wrote it (the key is kept, so it stays done).
        if (await this.deps.outbox.enqueueOnce(digestKey(canteen, today.date), [], now)) dropped += 1;
        continue;
      }
      const entries = await this.digestEntries(canteen, today.date, now);
      if (await this.deps.outbox.enqueueOnce(digestKey(canteen, today.date), entries, now)) {
        digests += 1;
        queued += entries.length;
      }
    }
    return { digests, queued, dropped };
  }

  private async digestEntries(canteen: StoredCanteen, date: string, now: Date): Promise<PushEntry[]> {
    const day = localDayRange(date, canteen.timeZone);
    const servings = await this.deps.audience.markedServingsOn(canteen.id, date, { from: day.from, to: day.until });
    const byUser = new Map<UserId, MarkedServing[]>();
    for (const serving of servings) byUser.set(serving.userId, [...(byUser.get(serving.userId) ?? []), serving]);
    const settings = await this.deps.notificationSettings.settingsOfUsers([...byUser.keys()]);
    const payloads = new Map<UserId, (language: 'en' | 'de') => string>();
    for (const [userId, theirs] of byUser) {
      if (!(settings.get(userId)?.favouritesToday ?? true)) continue;
      const { filters, aversions } = await this.deps.preferences.preferencesOf(userId).then((preferences) => ({
        filters: preferences.filter.without.length + preferences.filter.only.length === 0 ? null : preferences.filter,
        aversions: new Set(preferences.aversions.map((aversion) => aversion.dishId)),
      }));
      const wanted = theirs.filter((serving) => wantedServing(serving.labels, filters, aversions.has(serving.dishId)));
      if (wanted.length === 0) continue;
      const names = wanted.map((serving) => serving.name);
      payloads.set(userId, (language) =>
        payloadJson(digestPayload({ canteenId: canteen.id, canteenName: canteen.name, date, names, language })),
      );
    }
    return entriesFor(this.deps, payloads, `favourites-${date}`, now, day.until);
  }
}

const digestKey = (canteen: StoredCanteen, date: string) => `digest:${canteen.id}:${date}`;

/**
 * A marked meal of today set sold out: a notification to those who marked it and asked for sold-out notices (off by
 * default), once a meal whatever happens to it after.
 */
export class NotifySoldOut {
  constructor(private readonly deps: NoticeDeps) {}

  async execute({
    mealId,
    name,
    canteenId,
    servedAt,
    now,
  }: {
    readonly mealId: MealId;
    readonly name: string;
    readonly canteenId: string;
    readonly servedAt: Date;
    readonly now: Date;
  }): Promise<number> {
    const canteen = await this.deps.canteens.find(canteenId);
    if (canteen === undefined) return 0;
    const day = localDayOf(servedAt, canteen.timeZone);
    if (localDayOf(now, canteen.timeZone).date !== day.date) return 0;
    const markers = await this.deps.audience.markersOf(mealId);
    const settings = await this.deps.notificationSettings.settingsOfUsers(markers);
    const payloads = new Map<UserId, (language: 'en' | 'de') => string>();
    for (const userId of markers) {
      if (!(settings.get(userId)?.soldOut ?? false)) continue;
      payloads.set(userId, (language) =>
        payloadJson(
          soldOutPayload({ canteenId: canteen.id, canteenName: canteen.name, date: day.date, mealId, name, language }),
        ),
      );
    }
    const entries = await entriesFor(this.deps, payloads, `sold-out-${mealId}`, now, day.until);
    return (await this.deps.outbox.enqueueOnce(`sold-out:${mealId}`, entries, now)) ? entries.length : 0;
  }
}
