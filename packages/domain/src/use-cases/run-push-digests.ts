import { localDayOf, localDayRange } from '../calendar/local-day.js';
import type { StoredCanteen } from '../canteen/canteen.js';
import { instantOfLocalTime, type LocalTime } from '../menu/local-time.js';
import type { UserId } from '../shared/user-id.js';
import { wantedServing } from '../webhook/favourites-events.js';
import { digestPayload, payloadJson } from '../push/push-messages.js';
import type { MarkedServing, PushEntry } from '../push/push-ports.js';
import { type NoticeDeps, entriesFor } from './push-notice-deps.js';

/** People whose preferences one read asks for: a digest of 10,000 reads them in 20 reads. */
export const digestPreferenceBatch = 500;

/** A digest that could not start within this long after its time is dropped: lunch is over. */
export const digestLateLimitMs = 2 * 60 * 60 * 1000;

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
      const key = digestKey(canteen, today.date);
      // Done (here or by another instance): the people it goes to are not read again. enqueueOnce still decides.
      if (now < due || (await this.deps.outbox.usedOnce(key))) continue;
      if (now.getTime() - due.getTime() > digestLateLimitMs) {
        // Too late for today; counted once it is clear no run wrote it (the key is kept, so it stays done).
        if (await this.deps.outbox.enqueueOnce(key, [], now)) dropped += 1;
        continue;
      }
      const entries = await this.digestEntries(canteen, today.date, now);
      if (await this.deps.outbox.enqueueOnce(key, entries, now)) {
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
    for (const serving of servings) {
      const theirs = byUser.get(serving.userId);
      if (theirs === undefined) byUser.set(serving.userId, [serving]);
      else theirs.push(serving);
    }
    const settings = await this.deps.notificationSettings.settingsOfUsers([...byUser.keys()]);
    const wanting = [...byUser.keys()].filter((userId) => settings.get(userId)?.favouritesToday ?? true);
    const payloads = new Map<UserId, (language: 'en' | 'de') => string>();
    for (let start = 0; start < wanting.length; start += digestPreferenceBatch) {
      const batch = wanting.slice(start, start + digestPreferenceBatch);
      const preferences = await this.deps.preferences.preferencesOfUsers(batch);
      for (const userId of batch) {
        const theirs = preferences.get(userId);
        const filters =
          theirs === undefined || theirs.filter.without.length + theirs.filter.only.length === 0 ? null : theirs.filter;
        const aversions = new Set(theirs?.aversions.map((aversion) => aversion.dishId));
        const wanted = byUser
          .get(userId)!
          .filter((serving) => wantedServing(serving.labels, filters, aversions.has(serving.dishId)));
        if (wanted.length === 0) continue;
        const names = wanted.map((serving) => serving.name);
        payloads.set(userId, (language) =>
          payloadJson(digestPayload({ canteenId: canteen.id, canteenName: canteen.name, date, names, language })),
        );
      }
    }
    return entriesFor(this.deps, payloads, `favourites-${date}`, now, day.until);
  }
}

const digestKey = (canteen: StoredCanteen, date: string) => `digest:${canteen.id}:${date}`;
