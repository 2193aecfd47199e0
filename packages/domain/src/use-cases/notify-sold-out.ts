import { localDayOf } from '../calendar/local-day.js';
import type { MealId } from '../meal/meal.js';
import type { UserId } from '../shared/user-id.js';
import { payloadJson, soldOutPayload } from '../push/push-messages.js';
import { type NoticeDeps, entriesFor } from './push-notice-deps.js';

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
