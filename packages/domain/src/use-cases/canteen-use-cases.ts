import { nobodyListens, type AnnounceMenuChange } from '../reading/menu-change.js';
import { anySchedule, validateCanteen, type Canteen, type CanteenId } from '../canteen/canteen.js';
import { anyFeedUrl, type CanteenFeed, type FeedUrlCheck, type ScheduleCheck } from '../feed/canteen-feed.js';
import type { FeedStateRepository } from '../feed/feed-ports.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import { accept, refuse, type Result } from '../shared/refusal.js';

export const saveCanteenRefusals = ['invalid_canteen'] as const;

/** Creates a canteen or replaces all of its fields (admin). */
export class SaveCanteen {
  constructor(
    private readonly deps: {
      readonly canteens: CanteenRepository;
      readonly checkSchedule?: ScheduleCheck;
      readonly checkFeedUrl?: FeedUrlCheck;
      /** Where a feed whose URL changed is forgotten. */
      readonly feedStates?: FeedStateRepository;
      readonly announce?: AnnounceMenuChange;
    },
  ) {}

  async execute(canteen: Canteen): Promise<Result<{ readonly canteen: Canteen; readonly created: boolean }, 'invalid_canteen'>> {
    const valid = validateCanteen(canteen, this.deps.checkSchedule ?? anySchedule, this.deps.checkFeedUrl ?? anyFeedUrl);
    if (!valid.ok) return valid;
    const before = await this.deps.canteens.find(canteen.id);
    const { created } = await this.deps.canteens.save(valid.value);
    await this.forgetMovedFeeds(valid.value, before?.feeds ?? []);
    // A canteen's time zone decides which meals its days hold.
    (this.deps.announce ?? nobodyListens)({ kind: 'menus' });
    return accept({ canteen: valid.value, created });
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

export const getCanteenRefusals = ['canteen_not_found'] as const;

export class GetCanteen {
  constructor(private readonly deps: { readonly canteens: CanteenRepository }) {}

  async execute(id: CanteenId): Promise<Result<Canteen, 'canteen_not_found'>> {
    const canteen = await this.deps.canteens.find(id);
    return canteen === undefined ? refuse('canteen_not_found') : accept(canteen);
  }
}

/** Every canteen, by id. */
export class ListCanteens {
  constructor(private readonly deps: { readonly canteens: CanteenRepository }) {}

  async execute(): Promise<readonly Canteen[]> {
    return this.deps.canteens.list();
  }
}
