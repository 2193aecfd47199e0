import type { CanteenId } from '../canteen/canteen.js';
import type { CanteenRepository } from '../canteen/canteen-repository.js';
import { neverFetched, type CanteenFeed, type FeedState } from '../feed/canteen-feed.js';
import type { FeedStateRepository, NextRun } from '../feed/feed-ports.js';
import { nextFeedAttemptAt } from '../feed/feed-retry.js';
import type { Clock } from '../shared/clock.js';
import { accept, refuse, type Result } from '../shared/refusal.js';

/** A feed with what the service remembers of it, and when its schedule fires next. */
export interface FeedSummary {
  readonly feed: CanteenFeed;
  readonly state: FeedState;
  readonly nextRunAt: Date | null;
}

export const listFeedsRefusals = ['canteen_not_found'] as const;

/** A canteen's feeds with their last outcomes and next runs (admin). */
export class ListFeeds {
  constructor(
    private readonly deps: {
      readonly canteens: CanteenRepository;
      readonly feedStates: FeedStateRepository;
      readonly nextRun: NextRun;
      readonly clock: Clock;
    },
  ) {}

  async execute({
    canteenId,
  }: {
    readonly canteenId: CanteenId;
  }): Promise<Result<readonly FeedSummary[], 'canteen_not_found'>> {
    const canteen = await this.deps.canteens.find(canteenId);
    if (canteen === undefined) return refuse('canteen_not_found');
    const states = new Map((await this.deps.feedStates.list(canteenId)).map((state) => [state.feedName, state]));
    const now = this.deps.clock.now();
    return accept(
      canteen.feeds.map((feed) => {
        const state = states.get(feed.name) ?? neverFetched(canteen.id, feed.name);
        return { feed, state, nextRunAt: nextFeedAttemptAt(feed, state, canteen.timeZone, this.deps.nextRun, now) };
      }),
    );
  }
}
