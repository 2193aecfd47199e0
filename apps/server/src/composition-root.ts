import 'reflect-metadata';
import {
  buildHttpApp,
  buildMetricsApp,
  createHmacTokenVerifier,
  createJwksTokenVerifier,
  createPublicKeyTokenVerifier,
  type TokenVerifier,
} from '@canteen-meals/adapters-http';
import { createUseCases, systemClock, type Clock, type FeedState, type Repositories, type UseCases } from '@canteen-meals/domain';
import type { ChangeRelayEvent } from '@canteen-meals/adapters-postgres';
import type { FastifyInstance } from 'fastify';
import { container as rootContainer, instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import type { Config } from './config.js';
import { checkSchedule, nextRunOf } from './feeds/cron-schedules.js';
import { startFeedScheduler } from './feeds/feed-scheduler.js';
import { openMensaFeedReader } from './feeds/openmensa-feed-reader.js';
import { outboundFeedSource } from './feeds/outbound-feed-source.js';
import { CountingMarkingRepository, CountingRatingRepository, CountingUserDataRepository } from './counting-repositories.js';
import { loggerOptions, type LogDestination } from './logger-options.js';
import { openPersistenceWhenReachable, type DatabaseWaiting } from './database-connect.js';
import { type Persistence, type PersistenceWarning, warnOnStderr } from './persistence.js';
import { createServiceMetrics, type ServiceMetrics } from './service-metrics.js';
import { newWebhookSecret } from '@canteen-meals/adapters-outbound';
import { outboundWebhookSender, webhookUrlCheck } from './webhooks/outbound-webhook-sender.js';
import { startWebhookWorker } from './webhooks/webhook-worker.js';

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
} as const;

export interface Overrides {
  readonly clock?: Clock;
  readonly persistence?: Persistence;
  /** Log lines go here instead of stdout (tests read them). */
  readonly logDestination?: LogDestination;
  /** Called while PostgreSQL does not answer at start, before each further try (main.ts answers the probes meanwhile). */
  readonly onDatabaseWaiting?: (waiting: DatabaseWaiting) => void | Promise<void>;
  /** Where the database warns before the app (and its logger) exists; stderr unless told. */
  readonly earlyWarning?: PersistenceWarning;
}

/**
 * The only place that knows every package. A test can swap the clock; the database is opened beforehand (opening
 * PostgreSQL is asynchronous, a tsyringe factory is not).
 */
export function createContainer(
  config: Config,
  overrides: Overrides & { readonly persistence: Persistence },
): DependencyContainer {
  const c = rootContainer.createChildContainer();
  c.register(tokens.config, { useValue: config });
  c.register(tokens.clock, { useValue: overrides.clock ?? systemClock });
  const feedLog: FeedLog = { write: (state) => console.warn(`meals: feed ${state.canteenId}/${state.feedName}: ${state.outcome}`) };
  c.register(tokens.feedLog, { useValue: feedLog });
  const webhookLog: WebhookLog = { senderFailed: (error) => console.error('meals: a webhook sender failed', error) };
  c.register(tokens.webhookLog, { useValue: webhookLog });
  c.register(tokens.persistence, { useValue: overrides.persistence });
  c.register(tokens.verifyToken, {
    useFactory: instanceCachingFactory<TokenVerifier>(() => createTokenVerifier(config)),
  });
  // Disabled metrics are null: nothing is counted, and /metrics does not exist.
  c.register(tokens.metrics, {
    useFactory: instanceCachingFactory<ServiceMetrics | null>(() => (config.metricsEnabled ? createServiceMetrics() : null)),
  });
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
    };
  };
  c.register(tokens.useCases, {
    useFactory: instanceCachingFactory<UseCases>((d) =>
      createUseCases(
        repositories(d),
        d.resolve<Clock>(tokens.clock),
        { start: config.serviceStart, timeZone: config.timeZone },
        {
          feedSource: outboundFeedSource({
            allowPrivateNetworks: config.outboundAllowPrivateNetworks,
            retryBaseMs: config.feedRetryBaseMs,
          }),
          feedReader: openMensaFeedReader,
          nextRun: nextRunOf,
          checkSchedule,
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
          delivery: { baseMs: config.webhookRetryBaseMs, leaseMs: config.webhookTimeoutMs + 60_000, onSenderError: (error) => webhookLog.senderFailed(error) },
        },
      ),
    ),
  });
  return c;
}

export async function buildServer(config: Config, overrides: Overrides = {}) {
  // The database may warn before the app (and its logger) exists: such warnings go to stderr until then.
  let warn: PersistenceWarning = overrides.earlyWarning ?? warnOnStderr;
  const persistence =
    overrides.persistence ??
    (await openPersistenceWhenReachable(config, (details, message) => warn(details, message), {
      ...(overrides.onDatabaseWaiting && { onWaiting: overrides.onDatabaseWaiting }),
    }));
  const c = createContainer(config, { ...overrides, persistence });
  const metrics = c.resolve<ServiceMetrics | null>(tokens.metrics);
  const logger = loggerOptions(config, overrides.logDestination);
  const metricsOnOwnPort = metrics !== null && config.metricsPort !== undefined;
  const app: FastifyInstance = await buildHttpApp({
    useCases: c.resolve<UseCases>(tokens.useCases),
    verifyToken: c.resolve(tokens.verifyToken),
    logger,
    docs: config.docsEnabled,
    operations: {
      readiness: () => persistence.ping(),
      ...(metrics === null ? {} : { observeRequest: metrics.observeRequest }),
      ...(metrics === null || metricsOnOwnPort ? {} : { metrics: metrics.endpoint }),
      ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
    },
    rateLimits: config.rateLimits,
    ...(config.rateLimitStore === 'database' && persistence.hitCounter !== undefined && {
      sharedRateLimits: {
        counter: persistence.hitCounter,
        onFallback: (error: Error) => {
          metrics?.rateLimitFallback();
          warn({ err: error.message }, 'the shared rate-limit count failed: this instance counts on its own for a while');
        },
        onRecovered: () => warn({}, 'the shared rate-limit count answers again'),
      },
    }),
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
    cursorSecret: config.cursorSecret,
    timeouts: config.httpTimeouts,
    clock: c.resolve<Clock>(tokens.clock),
    menuCaching: config.menuCaching,
    live: { ...config.live, observe: (live) => metrics?.watch({ liveStreamsOpen: () => live.streams }) },
    rankingSettings: config.rankingSettings,
  });
  warn = (details, message) => app.log.warn(details, message);
  metrics?.watch({ webhookDeliveriesWaiting: () => persistence.outbox.pendingCount() });
  // On PostgreSQL, the other instances' menu changes reach this one's caches and live streams, and its reach them.
  const changeRelay = persistence.relayChanges?.(c.resolve<UseCases>(tokens.useCases).menuChanges, (event) => logRelayEvent(app, event)) ?? null;
  // Every feed outcome, scheduled or asked for, is logged with its canteen and feed.
  c.resolve<FeedLog>(tokens.feedLog).write = (state) =>
    app.log[state.outcome === 'failed' ? 'warn' : 'info'](
      { canteen: state.canteenId, feed: state.feedName, outcome: state.outcome, httpStatus: state.httpStatus, durationMs: state.durationMs, counts: state.counts, error: state.lastError },
      'feed fetched',
    );
  // Canteen feeds are fetched on their schedules from here on.
  const scheduler = startFeedScheduler(c.resolve<UseCases>(tokens.useCases).runDueFeeds, {
    intervalMs: config.feedCheckIntervalS * 1000,
    onError: (error) => app.log.error({ err: error }, 'the feed scheduler failed'),
  });
  // Webhooks go out in the background, after local menu changes and every WEBHOOK_POLL_MS (0: not from this instance).
  c.resolve<WebhookLog>(tokens.webhookLog).senderFailed = (error) => app.log.error({ err: error }, 'a webhook sender failed');
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
  // Served on METRICS_PORT by main.ts; closed with the app.
  const metricsApp = metricsOnOwnPort ? await buildMetricsApp({
        metrics: metrics.endpoint,
        ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
        logger,
      }) : undefined;
  // The database closes after Fastify has let every in-flight request finish.
  app.addHook('onClose', async () => {
    await scheduler.stop();
    await webhookWorker?.stop();
    await changeRelay?.stop();
    await metricsApp?.close();
    await persistence.close();
  });
  return { app, metricsApp, persistence, container: c, scheduler, changeRelay, webhookWorker };
}

function logRelayEvent(app: FastifyInstance, event: ChangeRelayEvent): void {
  switch (event.type) {
    case 'listening':
      if (event.reconnected) app.log.warn('listening for other instances\' changes again: menu caches dropped, live streams sent snapshots');
      else app.log.info('listening for other instances\' changes');
      return;
    case 'disconnected':
      app.log.warn({ err: event.error, attempt: event.attempt, retryInMs: event.retryInMs }, 'not listening for other instances\' changes; retrying');
      return;
    case 'notify-failed':
      app.log.warn({ err: event.error }, 'could not tell other instances of a change: they show it when their menu caches expire');
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
