import 'reflect-metadata';
import {
  buildHttpApp,
  buildMetricsApp,
  createHmacTokenVerifier,
  createJwksTokenVerifier,
  createPublicKeyTokenVerifier,
  httpUseCasesOf,
  type TokenVerifier,
} from '@canteen-meals/adapters-http';
import { createUseCases, systemClock, type FeedState, type Repositories, type UseCases } from '@canteen-meals/domain';
import type { CanteenRepository, Clock, FeedStateRepository, PushSender } from '@canteen-meals/domain/ports';
import type { ChangeRelayEvent } from '@canteen-meals/adapters-postgres';
import type { FastifyInstance } from 'fastify';
import { container as rootContainer, instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import type { Config } from './config.js';
import { checkSchedule, nextRunOf } from './feeds/cron-schedules.js';
import { startFeedScheduler } from './feeds/feed-scheduler.js';
import { startAuditRetentionJob } from './audit/audit-retention-job.js';
import { livePlugin } from '@canteen-meals/adapters-http-live';
import { pushPlugin } from '@canteen-meals/adapters-http-push';
import { webhooksPlugin } from '@canteen-meals/adapters-http-webhooks';
import { openMensaPlugin } from '@canteen-meals/adapters-http-openmensa';
import { pagesPlugin } from '@canteen-meals/adapters-http-pages';
import { openMensaFeedWriter } from './feeds/openmensa-feed-writer.js';
import { workerFeedReader, type FeedReadingBudget } from './feeds/worker-feed-reader.js';
import { outboundFeedSource } from './feeds/outbound-feed-source.js';
import {
  CountingAvailabilityRepository,
  CountingMarkingRepository,
  CountingRatingRepository,
  CountingUserDataRepository,
} from './counting-repositories.js';
import { loggerOptions, type LogDestination } from './logger-options.js';
import { openPersistenceWhenReachable, type DatabaseWaiting } from './database-connect.js';
import { type Persistence, type PersistenceWarning, warnOnStderr } from './persistence.js';
import type { ServiceMetrics } from './service-metrics.js';
import { newWebhookSecret } from '@canteen-meals/adapters-outbound/policy';
import { outboundWebhookSender, webhookUrlCheck } from './webhooks/outbound-webhook-sender.js';
import { startWebhookWorker } from './webhooks/webhook-worker.js';
import { wirePush } from './push/push-wiring.js';

/** Where one container logs feed outcomes: stderr until the app (and its logger) exists. */
interface FeedLog {
  write: (state: FeedState) => void;
}

/** Where one container reports a sender that threw (a bug): stderr until the app (and its logger) exists. */
interface WebhookLog {
  senderFailed: (error: unknown) => void;
}

/** Explicit tokens: no decorators, so the wiring works whatever compiler builds the code. */
export const tokens = {
  config: Symbol('Config'),
  clock: Symbol('Clock'),
  persistence: Symbol('Persistence'),
  verifyToken: Symbol('TokenVerifier'),
  useCases: Symbol('UseCases'),
  metrics: Symbol('ServiceMetrics'),
  feedLog: Symbol('FeedLog'),
  webhookLog: Symbol('WebhookLog'),
  feedsStopping: Symbol('FeedsStopping'),
} as const;

export interface Overrides {
  readonly clock?: Clock;
  readonly persistence?: Persistence;
  /** Log lines go here instead of stdout (tests read them). */
  readonly logDestination?: LogDestination;
  /** What reading one feed may take (default: defaultFeedReadingBudget); tests give a tiny one. */
  readonly feedReadingBudget?: FeedReadingBudget;
  /**
   * Called while PostgreSQL does not answer at start, before each further try (main.ts answers the probes meanwhile).
   */
  readonly onDatabaseWaiting?: (waiting: DatabaseWaiting) => void | Promise<void>;
  /** Where the database warns before the app (and its logger) exists; stderr unless told. */
  readonly earlyWarning?: PersistenceWarning;
  /** Web Push's sender (tests: their own push service's rules); default: adapters-outbound with web-push. */
  readonly pushSender?: PushSender;
}

/**
 * The only place that knows every package. A test can swap the clock; the database is opened beforehand (opening
 * PostgreSQL is asynchronous, a tsyringe factory is not).
 */
export function createContainer(
  config: Config,
  overrides: Overrides & { readonly persistence: Persistence; readonly metrics: ServiceMetrics | null },
): DependencyContainer {
  const c = rootContainer.createChildContainer();
  c.register(tokens.config, { useValue: config });
  c.register(tokens.clock, { useValue: overrides.clock ?? systemClock });
  const feedLog: FeedLog = {
    write: (state) => console.warn(`meals: feed ${state.canteenId}/${state.feedName}: ${state.outcome}`),
  };
  c.register(tokens.feedLog, { useValue: feedLog });
  const webhookLog: WebhookLog = { senderFailed: (error) => console.error('meals: a webhook sender failed', error) };
  c.register(tokens.webhookLog, { useValue: webhookLog });
  c.register(tokens.persistence, { useValue: overrides.persistence });
  // Aborted when the app closes: every feed fetch under way ends, so no hanging feed host holds up a shutdown.
  const feedsStopping = new AbortController();
  c.register(tokens.feedsStopping, { useValue: feedsStopping });
  c.register(tokens.verifyToken, {
    useFactory: instanceCachingFactory<TokenVerifier>(() => createTokenVerifier(config)),
  });
  // Disabled metrics are null: nothing is counted, and /metrics does not exist.
  // A factory, not useValue: tsyringe takes a null useValue for a class to construct.
  c.register(tokens.metrics, { useFactory: () => overrides.metrics });
  // The ports, wrapped to count ratings, markings and erasures when metrics are on.
  const repositories = (d: DependencyContainer): Repositories => {
    const persistence = d.resolve<Persistence>(tokens.persistence);
    const metrics = d.resolve<ServiceMetrics | null>(tokens.metrics);
    if (metrics === null) return persistence;
    return {
      ...persistence,
      markings: new CountingMarkingRepository(persistence.markings, metrics),
      ratings: new CountingRatingRepository(persistence.ratings, metrics),
      userData: new CountingUserDataRepository(persistence.userData, metrics),
      availability: new CountingAvailabilityRepository(persistence.availability, metrics),
    };
  };
  c.register(tokens.useCases, {
    useFactory: instanceCachingFactory<UseCases>((d) =>
      createUseCases(
        repositories(d),
        d.resolve<Clock>(tokens.clock),
        // Between the units of a long import, requests waiting on the loop are served (a 10 000-meal feed is 20 units).
        {
          start: config.serviceStart,
          timeZone: config.timeZone,
          auditRetentionDays: config.auditRetentionDays,
          letOthersRun: () => new Promise<void>((resolve) => setImmediate(resolve)),
        },
        {
          feedSource: outboundFeedSource({
            allowPrivateNetworks: config.outboundAllowPrivateNetworks,
            retryBaseMs: config.feedRetryBaseMs,
            deadlineMs: config.feedRuns.fetchDeadlineMs,
            stopping: feedsStopping.signal,
          }),
          feedReader: workerFeedReader(overrides.feedReadingBudget),
          nextRun: nextRunOf,
          checkSchedule,
          // Feeds and webhooks share the outbound address rule, and so its check on saving.
          checkUrl: webhookUrlCheck({ allowPrivateNetworks: config.outboundAllowPrivateNetworks }),
          runBounds: { concurrency: config.feedRuns.concurrency, perKey: config.feedRuns.perHost },
          scheduledFetchDeadlineMs: config.feedRuns.runDeadlineMs,
          onFeedRan: (state) => {
            d.resolve<ServiceMetrics | null>(tokens.metrics)?.feedFetched(state);
            feedLog.write(state);
          },
        },
        {
          sender: outboundWebhookSender({
            allowPrivateNetworks: config.outboundAllowPrivateNetworks,
            timeoutMs: config.webhookTimeoutMs,
            clock: d.resolve<Clock>(tokens.clock),
          }),
          newSecret: newWebhookSecret,
          checkUrl: webhookUrlCheck({ allowPrivateNetworks: config.outboundAllowPrivateNetworks }),
          // A claimed delivery stays this instance's well past one attempt's timeout.
          delivery: {
            baseMs: config.webhookRetryBaseMs,
            leaseMs: config.webhookTimeoutMs + 60_000,
            perEndpoint: config.webhookMaxInFlightPerEndpoint,
            timeoutBackoffMs: config.webhookTimeoutBackoffMs,
            onSenderError: (error) => webhookLog.senderFailed(error),
          },
        },
      ),
    ),
  });
  return c;
}

/** What the feed freshness gauge reads at each scrape. */
export interface FeedGaugeSources {
  readonly canteens: CanteenRepository;
  readonly feedStates: FeedStateRepository;
  readonly clock: Clock;
}

/** The service's metrics when they are on; prom-client is loaded only then (start time). */
export async function createMetrics(
  config: Pick<Config, 'metricsEnabled'>,
  feeds?: FeedGaugeSources,
): Promise<ServiceMetrics | null> {
  if (!config.metricsEnabled) return null;
  const [{ createServiceMetrics }, { registerFeedFreshnessGauge }] = await Promise.all([
    import('./service-metrics.js'),
    import('./feeds/feed-freshness-gauge.js'),
  ]);
  return createServiceMetrics(feeds === undefined ? [] : [(registers) => registerFeedFreshnessGauge(registers, feeds)]);
}

export async function buildServer(config: Config, overrides: Overrides = {}) {
  // The database may warn before the app (and its logger) exists: such warnings go to stderr until then.
  let warn: PersistenceWarning = overrides.earlyWarning ?? warnOnStderr;
  const persistence =
    overrides.persistence ??
    (await openPersistenceWhenReachable(config, (details, message) => warn(details, message), {
      ...(overrides.onDatabaseWaiting && { onWaiting: overrides.onDatabaseWaiting }),
    }));
  const feeds = {
    canteens: persistence.canteens,
    feedStates: persistence.feedStates,
    clock: overrides.clock ?? systemClock,
  };
  const c = createContainer(config, { ...overrides, persistence, metrics: await createMetrics(config, feeds) });
  const metrics = c.resolve<ServiceMetrics | null>(tokens.metrics);
  const logger = loggerOptions(config, overrides.logDestination);
  const metricsOnOwnPort = metrics !== null && config.metricsPort !== undefined;
  const push = wirePush(config, {
    store: persistence.pushStore,
    canteens: persistence.canteens,
    preferences: persistence.preferences,
    clock: c.resolve<Clock>(tokens.clock),
    menuChanges: c.resolve<UseCases>(tokens.useCases).menuChanges,
    getMeal: c.resolve<UseCases>(tokens.useCases).getMeal,
    metrics,
    ...(overrides.pushSender === undefined ? {} : { sender: overrides.pushSender }),
  });
  const app: FastifyInstance = await buildHttpApp({
    useCases: httpUseCasesOf(c.resolve<UseCases>(tokens.useCases)),
    verifyToken: c.resolve(tokens.verifyToken),
    logger,
    docs: config.docsEnabled,
    compression: config.compressionEnabled,
    operations: {
      readiness: () => persistence.ping(),
      ...(metrics === null ? {} : { observeRequest: metrics.observeRequest }),
      ...(metrics === null || metricsOnOwnPort ? {} : { metrics: metrics.endpoint }),
      ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
    },
    rateLimits: config.rateLimits,
    ...(config.rateLimitStore === 'database' &&
      persistence.hitCounter !== undefined && {
        sharedRateLimits: {
          counter: persistence.hitCounter,
          onFallback: (error: Error) => {
            metrics?.rateLimitFallback();
            warn(
              { err: error.message },
              'the shared rate-limit count failed: this instance counts on its own for a while',
            );
          },
          onRecovered: () => warn({}, 'the shared rate-limit count answers again'),
        },
      }),
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
    cursorSecret: config.cursorSecret,
    publicBaseUrl: config.publicBaseUrl,
    timeouts: config.httpTimeouts,
    clock: c.resolve<Clock>(tokens.clock),
    menuCaching: config.menuCaching,
    rankingSettings: config.rankingSettings,
    plugins: [
      pushPlugin({ push: push?.options }),
      webhooksPlugin({ useCases: c.resolve<UseCases>(tokens.useCases), cursorSecret: config.cursorSecret }),
      livePlugin({
        useCases: c.resolve<UseCases>(tokens.useCases),
        live: { ...config.live, observe: (live) => metrics?.watch({ liveStreamsOpen: () => live.streams }) },
      }),
      openMensaPlugin({ useCases: c.resolve<UseCases>(tokens.useCases), feedWriter: openMensaFeedWriter }),
      pagesPlugin({ signIn: config.signIn }),
    ],
  });
  warn = (details, message) => app.log.warn(details, message);
  metrics?.watch({ webhookDeliveriesWaiting: () => persistence.outbox.pendingCount() });
  // On PostgreSQL, the other instances' menu changes reach this one's caches and live streams, and its reach them.
  const changeRelay =
    persistence.relayChanges?.(c.resolve<UseCases>(tokens.useCases).menuChanges, (event) =>
      logRelayEvent(app, event),
    ) ?? null;
  // Every feed outcome, scheduled or asked for, is logged with its canteen and feed.
  c.resolve<FeedLog>(tokens.feedLog).write = (state) =>
    app.log[state.outcome === 'failed' ? 'warn' : 'info'](
      {
        canteen: state.canteenId,
        feed: state.feedName,
        outcome: state.outcome,
        httpStatus: state.httpStatus,
        durationMs: state.durationMs,
        counts: state.counts,
        error: state.lastError,
      },
      'feed fetched',
    );
  // Canteen feeds are fetched on their schedules from here on.
  const scheduler = startFeedScheduler(c.resolve<UseCases>(tokens.useCases).runDueFeeds, {
    intervalMs: config.feedCheckIntervalS * 1000,
    onError: (error) => app.log.error({ err: error }, 'the feed scheduler failed'),
  });
  // The audit trail keeps AUDIT_RETENTION_DAYS: a daily job deletes what is older.
  const auditRetention = startAuditRetentionJob(c.resolve<UseCases>(tokens.useCases).deleteExpiredAuditEntries, {
    onDeleted: (deleted, before) => {
      if (deleted > 0)
        app.log.info({ deleted, before: before.toISOString() }, 'audit entries past their retention deleted');
    },
    onError: (error) => app.log.error({ err: error }, 'the audit retention job failed'),
  });
  void auditRetention.tick();
  // Webhooks go out in the background, after local menu changes and every WEBHOOK_POLL_MS (0: not from this instance).
  c.resolve<WebhookLog>(tokens.webhookLog).senderFailed = (error) =>
    app.log.error({ err: error }, 'a webhook sender failed');
  const useCases = c.resolve<UseCases>(tokens.useCases);
  const webhookWorker =
    config.webhookPollMs === 0
      ? null
      : startWebhookWorker(useCases.deliverWebhooks, {
          pollMs: config.webhookPollMs,
          clock: c.resolve<Clock>(tokens.clock),
          menuChanges: useCases.menuChanges,
          onPass: (pass) => {
            metrics?.webhooksDelivered(pass);
            const { fannedOut, delivered, failed } = pass;
            if (delivered + failed > 0) app.log.info({ events: fannedOut, delivered, failed }, 'webhook deliveries');
          },
          onError: (error) => app.log.error({ err: error }, 'the webhook worker failed'),
        });
  // Web Push in the background: the digests when due, sold-out notices, the deliveries (PUSH_POLL_MS=0: none here).
  const pushWorker =
    push?.start({
      error: (error, message) => app.log.error({ err: error }, message),
      info: (details, message) => app.log.info(details, message),
    }) ?? null;
  // Served on METRICS_PORT by main.ts; closed with the app.
  const metricsApp = metricsOnOwnPort
    ? await buildMetricsApp({
        metrics: metrics.endpoint,
        ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
        logger,
      })
    : undefined;
  // Before Fastify waits for the requests in flight: a manual feed fetch among them ends now, with its failure.
  app.addHook('preClose', async () => c.resolve<AbortController>(tokens.feedsStopping).abort());
  // The database closes after Fastify has let every in-flight request finish.
  app.addHook('onClose', async () => {
    await scheduler.stop();
    await auditRetention.stop();
    await webhookWorker?.stop();
    await pushWorker?.stop();
    await changeRelay?.stop();
    await metricsApp?.close();
    await persistence.close();
  });
  return {
    app,
    metricsApp,
    persistence,
    container: c,
    scheduler,
    auditRetention,
    changeRelay,
    webhookWorker,
    pushWorker,
    push: push?.options,
  };
}

function logRelayEvent(app: FastifyInstance, event: ChangeRelayEvent): void {
  switch (event.type) {
    case 'listening':
      if (event.reconnected)
        app.log.warn("listening for other instances' changes again: menu caches dropped, live streams sent snapshots");
      else app.log.info("listening for other instances' changes");
      return;
    case 'disconnected':
      app.log.warn(
        { err: event.error, attempt: event.attempt, retryInMs: event.retryInMs },
        "not listening for other instances' changes; retrying",
      );
      return;
    case 'notify-failed':
      app.log.warn(
        { err: event.error },
        'could not tell other instances of a change: they show it when their menu caches expire',
      );
      return;
    case 'bad-payload':
      app.log.warn({ payload: event.payload }, 'skipped a notification that is no menu change');
      return;
  }
}

/** The verifier for the one configured key source. */
function createTokenVerifier(config: Config): TokenVerifier {
  const claims = {
    issuer: config.jwtIssuer,
    audience: config.jwtAudience,
    clockToleranceMs: config.jwtClockToleranceMs,
    maxLifetimeMs: config.jwtMaxLifetimeMs,
    roleMapping: config.roleMapping,
    scopeClaim: config.scopeClaim,
  };
  switch (config.jwtKey.kind) {
    case 'secret':
      return createHmacTokenVerifier({ ...claims, secret: config.jwtSecret });
    case 'public-key':
      return createPublicKeyTokenVerifier({ ...claims, publicKeyPem: config.jwtKey.pem });
    case 'jwks':
      return createJwksTokenVerifier({
        ...claims,
        issuer: config.jwtKey.issuer,
        jwksUrl: config.jwtKey.url,
        cooldownMs: config.jwtKey.cooldownMs,
      });
  }
}
