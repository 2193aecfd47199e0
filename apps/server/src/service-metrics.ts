import type { MetricsEndpoint, RequestObserver } from '@canteen-meals/adapters-http';
import {
  availabilityChanged,
  availabilityStatuses,
  type AvailabilityChange,
  type DeliveryPass,
  type ErasedUserData,
  type FeedState,
  type PushAttemptOutcome,
  type RatingChange,
} from '@canteen-meals/domain';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the service counts, and how a scrape reads it. One registry per server, so tests never share counters. */
export interface ServiceMetrics {
  readonly endpoint: MetricsEndpoint;
  readonly observeRequest: RequestObserver;
  ratingChanged(change: RatingChange): void;
  markingSet(marked: boolean): void;
  /** The kitchen changed a serving's availability (the same status again is no change and not counted). */
  availabilityChanged(change: AvailabilityChange): void;
  /** An erasure's ratings count as deleted, its markings as set to false. */
  userDataErased(erased: ErasedUserData): void;
  /** One fetch of a canteen's feed, by canteen and outcome, with its duration. */
  feedFetched(state: FeedState): void;
  /** The shared rate-limit count failed, and this instance counts on its own for a while. */
  rateLimitFallback(): void;
  /** One pass of this instance's webhook worker: the events it fanned out and its attempts by result. */
  webhooksDelivered(pass: DeliveryPass): void;
  /** Where the gauges read what waits and what is open, on each scrape (the app exists only after the metrics). */
  watch(sources: GaugeSources): void;
  /** One attempt of this instance to send a Web Push notification, by outcome. */
  pushSent(outcome: PushAttemptOutcome): void;
}

export interface GaugeSources {
  /** Deliveries of every instance that wait for an attempt (the shared database's count). */
  readonly webhookDeliveriesWaiting?: () => Promise<number>;
  /** Live statistics streams this instance holds open. */
  readonly liveStreamsOpen?: () => number;
  /** Web Push notifications waiting in the outbox (of every instance sharing the database). */
  readonly pushOutboxDepth?: () => Promise<number>;
}

// From a cached rating (about a millisecond) to a request stuck behind the SQLite busy timeout (seconds).
const latencyBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Registers a metric read at scrape time (a gauge of stored state) in the server's registry. */
export type ScrapedMetric = (registers: Registry[]) => void;

export function createServiceMetrics(scraped: readonly ScrapedMetric[] = []): ServiceMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  for (const register of scraped) register(registers);

  const requestLabels = ['method', 'route', 'status_code'] as const;
  const latencyName = 'http_request_duration_seconds';
  const latency = new Histogram({
    name: latencyName,
    help: 'Time from receiving a request to sending its response, by method, route pattern and status code',
    labelNames: requestLabels,
    buckets: latencyBuckets,
    registers,
  });
  // A request is recorded once, in the histogram (prom-client hashes the labels of every call); the counter is
  // filled from the histogram's per-series counts when it is read. See docs/decisions.md, "Metrics".
  new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: requestLabels,
    registers,
    async collect() {
      const { values } = await latency.get();
      this.reset();
      for (const { metricName, labels, value } of values) {
        if (metricName === `${latencyName}_count`) this.inc(labels, value);
      }
    },
  });
  const ratingCounts = countedOnScrape(registers, {
    name: 'meals_ratings_changed_total',
    help: 'Ratings stored: change="set" (a new or replaced value) or "deleted" (by rate-meal or an erasure); a request that changes nothing is not counted',
    label: 'change',
    values: ['set', 'deleted'],
  });
  const markingCounts = countedOnScrape(registers, {
    name: 'meals_markings_set_total',
    help: 'Markings set by mark-meal, by requested state (setting the state a marking already has counts too); each marking an erasure removes counts as "false"',
    label: 'marked',
    values: ['true', 'false'],
  });
  const availabilityCounts = countedOnScrape(registers, {
    name: 'meals_availability_changes_total',
    help: "Changes of a serving's availability by the kitchen, by the new status (available, few_left, sold_out); setting the status a serving has is not counted",
    label: 'status',
    values: availabilityStatuses,
  });

  const feedLabels = ['canteen', 'result'] as const;
  const feedFetches = new Counter({
    name: 'meals_feed_fetches_total',
    help: 'Fetches of canteen feeds, by canteen and result (imported, not_modified, failed)',
    labelNames: feedLabels,
    registers,
  });
  const feedDurations = new Histogram({
    name: 'meals_feed_fetch_duration_seconds',
    help: 'Time of a feed fetch and its import, by canteen and result',
    labelNames: feedLabels,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  });

  const rateLimitFallbacks = new Counter({
    name: 'meals_rate_limit_fallbacks_total',
    help: 'Times the rate-limit count shared by the instances (PostgreSQL) failed and this instance counted on its own for a while',
    registers,
  });

  const webhookAttempts = countedOnScrape(registers, {
    name: 'meals_webhook_attempts_total',
    help: 'Attempts of this instance to deliver a webhook, by result: "delivered" (a 2xx) or "failed" (anything else, retried or given up)',
    label: 'result',
    values: ['delivered', 'failed'],
  });
  const webhookEvents = new Counter({
    name: 'meals_webhook_events_total',
    help: 'Recorded events this instance turned into deliveries (favourites.upcoming ones derived on the way not counted)',
    registers,
  });

  const pushAttempts = countedOnScrape(registers, {
    name: 'meals_push_sent_total',
    help: 'Attempts of this instance to send a Web Push notification, by outcome: delivered (2xx), gone (404/410: the subscription removed), failed (another 4xx, not retried), retry (429, 5xx, no answer), expired (its day over)',
    label: 'outcome',
    values: ['delivered', 'gone', 'failed', 'retry', 'expired'],
  });

  let sources: GaugeSources = {};
  new Gauge({
    name: 'meals_push_outbox_depth',
    help: 'Web Push notifications waiting in the outbox (of every instance sharing the database): rising means push services fail or no instance sends',
    registers,
    async collect() {
      const depth = await sources.pushOutboxDepth?.().catch(() => undefined);
      if (depth !== undefined) this.set(depth);
    },
  });
  new Gauge({
    name: 'meals_webhook_deliveries_waiting',
    help: 'Webhook deliveries waiting for an attempt (pending, of every instance sharing the database): rising means receivers fail or no instance delivers',
    registers,
    async collect() {
      // A database that does not answer must not fail the whole scrape: the gauge keeps its last value, /readyz tells.
      const waiting = await sources.webhookDeliveriesWaiting?.().catch(() => undefined);
      if (waiting !== undefined) this.set(waiting);
    },
  });
  new Gauge({
    name: 'meals_live_streams_open',
    help: 'Live statistics streams (GET /api/v1/live) this instance holds open; LIVE_MAX_STREAMS is the limit',
    registers,
    collect() {
      this.set(sources.liveStreamsOpen?.() ?? 0);
    },
  });

  return {
    endpoint: { contentType: registry.contentType, render: () => registry.metrics() },
    watch: (watched) => {
      sources = { ...sources, ...watched };
    },
    webhooksDelivered: ({ fannedOut, delivered, failed }) => {
      webhookAttempts.delivered += delivered;
      webhookAttempts.failed += failed;
      if (fannedOut > 0) webhookEvents.inc(fannedOut);
    },
    feedFetched: (state) => {
      const labels = { canteen: state.canteenId, result: state.outcome ?? 'failed' };
      feedFetches.inc(labels);
      if (state.durationMs !== null) feedDurations.observe(labels, state.durationMs / 1000);
    },
    observeRequest: ({ method, route, statusCode, durationSeconds }) => {
      latency.observe({ method, route, status_code: statusCode }, durationSeconds);
    },
    ratingChanged: (change) => {
      if (change.previous === change.next) return;
      ratingCounts[change.next === null ? 'deleted' : 'set'] += 1;
    },
    availabilityChanged: (change) => {
      if (availabilityChanged(change)) availabilityCounts[change.next.status] += 1;
    },
    markingSet: (marked) => {
      markingCounts[marked ? 'true' : 'false'] += 1;
    },
    rateLimitFallback: () => rateLimitFallbacks.inc(),
    pushSent: (outcome) => {
      pushAttempts[outcome] += 1;
    },
    userDataErased: ({ markings, ratings }) => {
      ratingCounts.deleted += ratings;
      markingCounts.false += markings;
    },
  };
}

/**
 * A counter with one label, counted in plain numbers and handed to prom-client when a scrape reads it: these count
 * every rating and mark, and every prom-client call hashes its labels. Answers the numbers to increment.
 */
function countedOnScrape<Value extends string>(
  registers: Registry[],
  { name, help, label, values }: { name: string; help: string; label: string; values: readonly Value[] },
): Record<Value, number> {
  const counts = Object.fromEntries(values.map((value) => [value, 0])) as Record<Value, number>;
  new Counter({
    name,
    help,
    labelNames: [label],
    registers,
    collect() {
      this.reset();
      for (const value of values) if (counts[value] > 0) this.inc({ [label]: value }, counts[value]);
    },
  });
  return counts;
}
