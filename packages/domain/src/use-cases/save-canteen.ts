import { nobodyListens, type AnnounceMenuChange } from '../reading/menu-change.js';
import { anySchedule, validateCanteen, type Canteen, type StoredCanteen } from '../canteen/canteen.js';
import { anyFeedUrl, type CanteenFeed, type FeedUrlCheck, type ScheduleCheck } from '../feed/canteen-feed.js';
import type { FeedStateRepository } from '../feed/feed-ports.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import type { AuditActor } from '../audit/audit-entry.js';
import { canteenSaveAudit } from '../audit/audit-notes.js';
import type { Clock } from '../shared/clock.js';
import type { Result } from '../shared/refusal.js';

export const saveCanteenRefusals = ['invalid_canteen', 'openmensa_id_taken'] as const;

type SaveCanteenRefusal = (typeof saveCanteenRefusals)[number];

/** Creates a canteen or replaces all of its fields (admin); its OpenMensa number is kept unless one is given. */
export class SaveCanteen {
  constructor(
    private readonly deps: {
      readonly canteens: CanteenRepository;
      readonly checkSchedule?: ScheduleCheck;
      readonly checkFeedUrl?: FeedUrlCheck;
      /** Where a feed whose URL changed is forgotten. */
      readonly feedStates?: FeedStateRepository;
      readonly announce?: AnnounceMenuChange;
      /** The instant of the audit trail's entries (absent: the system's). */
      readonly clock?: Clock;
    },
  ) {}

  /** `by`: who saves it, recorded in the audit trail (created, edited or restored, and each feed changed). */
  async execute(
    canteen: Canteen,
    by?: AuditActor,
  ): Promise<Result<{ readonly canteen: StoredCanteen; readonly created: boolean }, SaveCanteenRefusal>> {
    const valid = validateCanteen(
      canteen,
      this.deps.checkSchedule ?? anySchedule,
      this.deps.checkFeedUrl ?? anyFeedUrl,
    );
    if (!valid.ok) return valid;
    // An archived canteen counts too: restoring it keeps the states of the feeds it keeps.
    const before = (await this.deps.canteens.listWithArchived()).find((each) => each.id === canteen.id);
    const at = this.deps.clock?.now() ?? new Date();
    const saved = await this.deps.canteens.save(
      valid.value,
      by === undefined ? undefined : canteenSaveAudit(by, at, before),
    );
    if (!saved.ok) return saved;
    await this.forgetMovedFeeds(valid.value, before?.feeds ?? []);
    // A canteen's time zone decides which meals its days hold.
    (this.deps.announce ?? nobodyListens)({ kind: 'menus' });
    return saved;
  }

  /**
   * A feed whose URL changed (or that is new under its name) starts afresh: no failures, no validators of another
   * URL's answers, and due at the next check.
   */
  private async forgetMovedFeeds(canteen: Canteen, before: readonly CanteenFeed[]): Promise<void> {
    const urls = new Map(before.map((feed) => [feed.name, feed.url]));
    for (const feed of canteen.feeds) {
      if (urls.get(feed.name) !== feed.url) await this.deps.feedStates?.forget(canteen.id, feed.name);
    }
  }
}
