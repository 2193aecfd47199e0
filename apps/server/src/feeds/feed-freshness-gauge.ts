import type { CanteenRepository, Clock, FeedStateRepository } from '@canteen-meals/domain/ports';
import { Gauge, type Registry } from 'prom-client';

/**
 * `meals_feed_seconds_since_success{canteen,feed}`: read from the store at each scrape, so every instance reports the
 * same figure and a restart loses nothing. A feed that never succeeded has no series (alert on its failures instead).
 */
export function registerFeedFreshnessGauge(
  registers: Registry[],
  {
    canteens,
    feedStates,
    clock,
  }: { readonly canteens: CanteenRepository; readonly feedStates: FeedStateRepository; readonly clock: Clock },
): void {
  new Gauge({
    name: 'meals_feed_seconds_since_success',
    help: "Seconds since each canteen feed's last successful fetch (imported or not modified); none for a feed that never succeeded",
    labelNames: ['canteen', 'feed'],
    registers,
    async collect() {
      this.reset();
      const now = clock.now().getTime();
      for (const canteen of await canteens.list()) {
        if (canteen.feeds.length === 0) continue;
        const configured = new Set(canteen.feeds.map((feed) => feed.name));
        for (const state of await feedStates.list(canteen.id)) {
          if (!configured.has(state.feedName) || state.lastSuccessAt === null) continue;
          this.set(
            { canteen: canteen.id, feed: state.feedName },
            Math.max(0, now - state.lastSuccessAt.getTime()) / 1000,
          );
        }
      }
    },
  });
}
