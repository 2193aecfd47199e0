import { availableParallelism } from 'node:os';
import type { PushOptions } from '@canteen-meals/adapters-http';
import type { ClosablePushSender } from '@canteen-meals/adapters-outbound';
import {
  createPushUseCases,
  defaultPushDeliverySettings,
  type GetMeal,
  type MenuChangeHub,
} from '@canteen-meals/domain';
import type {
  Clock,
  PushSender,
  PushStore,
  PreferenceRepository,
  CanteenRepository,
} from '@canteen-meals/domain/ports';
import { ConfigError, type Config, type WebPushConfig } from '../config.js';
import type { ServiceMetrics } from '../service-metrics.js';
import { pushEndpointProblem } from '@canteen-meals/adapters-outbound/policy';
import { startPushPacer, yieldingPreferences, type PushPacer } from './push-pacer.js';
import { startPushWorker, type PushWorker } from './push-worker.js';

/** Where push's background work reports (the app's logger exists only after the HTTP app). */
export interface PushLog {
  error(error: unknown, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
}

export interface PushWiring {
  /** What the HTTP app serves: the VAPID public key and the use cases. */
  readonly options: NonNullable<PushOptions>;
  /** Starts the digests, the sold-out notices and the deliveries (unless PUSH_POLL_MS=0). */
  start(log: PushLog): PushWorker | null;
}

/**
 * Threads that prepare and send push requests (encryption, VAPID, the HTTP exchange): the cores beside the one of the
 * event loop, at least one, at most four (a digest of 10,000 messages is some seconds of one core's work).
 */
export const pushPreparingThreads = Math.max(1, Math.min(4, availableParallelism() - 1));

/** How long after the push worker starts the sender loads and starts its threads. */
export const pushWarmAfterMs = 5_000;

/** Connections kept open to one push service by each thread: as many as the deliveries send to it at once. */
export const pushKeptConnections = defaultPushDeliverySettings.perService;

/**
 * Sends through adapters-outbound (web-push's encryption and VAPID, and the guarded client with connections kept open
 * to each push service, in worker threads), loaded by the first send, each message when the pacer lets it go.
 */
export function outboundPushSender(
  webPush: WebPushConfig,
  options: { readonly allowPrivateNetworks: boolean; readonly timeoutMs: number },
  pacer: Pick<PushPacer, 'acquire'> = startPushPacer(),
): PushSender & { warm(): Promise<void>; close(): Promise<void> } {
  let sender: Promise<ClosablePushSender> | undefined;
  const made = () =>
    (sender ??= import('@canteen-meals/adapters-outbound').then(({ createPushSender }) =>
      createPushSender({
        vapid: webPush,
        allowPrivateNetworks: options.allowPrivateNetworks,
        timeoutMs: options.timeoutMs,
        preparingThreads: pushPreparingThreads,
        keptConnections: pushKeptConnections,
      }),
    ));
  return {
    send: async (subscription, message) => {
      const loading = made();
      // At the pace the event loop has room for (see PushPacer), whoever sends: a digest, a notice, a test.
      await pacer.acquire();
      return (await loading).send(subscription, message);
    },
    /** Loads the sender and starts its threads ahead of the first message. */
    warm: async () => {
      (await made()).warm();
    },
    /** Ends the preparing threads and the kept connections (idle ones hold no process open either way). */
    close: async () => {
      await (await sender)?.close();
    },
  };
}

/** Web Push for this server, when its keys are configured (else undefined: the routes answer 409 push_disabled). */
export function wirePush(
  config: Config,
  deps: {
    readonly store: PushStore | undefined;
    readonly canteens: CanteenRepository;
    readonly preferences: PreferenceRepository;
    readonly clock: Clock;
    readonly menuChanges: MenuChangeHub;
    readonly getMeal: GetMeal;
    readonly metrics: ServiceMetrics | null;
    /** Tests send to their own push service with their own sender. */
    readonly sender?: PushSender;
  },
): PushWiring | undefined {
  const webPush = config.webPush;
  if (webPush === undefined) return undefined;
  const store = deps.store;
  if (store === undefined)
    throw new ConfigError(
      `Web Push needs a database that keeps subscriptions, which ${config.database.kind} does not.`,
    );
  const outbound =
    deps.sender === undefined
      ? outboundPushSender(webPush, {
          allowPrivateNetworks: config.outboundAllowPrivateNetworks,
          timeoutMs: config.webhookTimeoutMs,
        })
      : undefined;
  const push = createPushUseCases({
    store,
    canteens: deps.canteens,
    preferences: yieldingPreferences(deps.preferences),
    sender: deps.sender ?? outbound!,
    clock: deps.clock,
    // An `https:` URL (`http:` only where OUTBOUND_ALLOW_PRIVATE_NETWORKS=1), under the outbound address rule of webhooks.
    checkEndpoint: (url) => pushEndpointProblem(url, { allowPrivateNetworks: config.outboundAllowPrivateNetworks }),
    digestTime: config.pushDigestTime,
    ...(deps.metrics === null ? {} : { onOutcome: (outcome) => deps.metrics!.pushSent(outcome) }),
  });
  deps.metrics?.watch({ pushOutboxDepth: () => store.pushOutbox.depth() });
  return {
    options: { publicKey: webPush.publicKey, ...push },
    start(log) {
      if (config.pushPollMs === 0) return null;
      const worker = startPushWorker(push, {
        pollMs: config.pushPollMs,
        clock: deps.clock,
        onDigests: (run) => {
          if (run.digests + run.dropped > 0)
            log.info({ digests: run.digests, queued: run.queued, dropped: run.dropped }, 'push digests');
        },
        onPass: (pass) => {
          if (pass.attempts > 0) log.info({ attempts: pass.attempts, ...pass.outcomes }, 'push deliveries');
        },
        onError: (error) => log.error(error, 'the push worker failed'),
      });
      // A marked meal of today sold out: its notice is queued (once a meal) and sent at once by this instance.
      deps.menuChanges.subscribe((change, origin) => {
        if (change.kind !== 'availability' || origin !== 'local' || change.availability.status !== 'sold_out') return;
        void (async () => {
          const read = await deps.getMeal.execute({ userId: null, mealId: change.mealId });
          if (!read.ok) return;
          const { meal } = read.value;
          const queued = await push.notifySoldOut.execute({
            mealId: meal.id,
            name: meal.name,
            canteenId: meal.canteenId,
            servedAt: meal.servedAt,
            now: deps.clock.now(),
          });
          if (queued > 0) await worker.runNow();
        })().catch((error: unknown) => log.error(error, 'a sold-out notice failed'));
      });
      // The sender's threads start a few seconds after the server (not during its start, nor in a first digest).
      const warming = setTimeout(() => {
        outbound?.warm().catch((error: unknown) => log.error(error, 'the push sender could not be started'));
      }, pushWarmAfterMs).unref();
      return {
        runNow: worker.runNow,
        stop: async () => {
          clearTimeout(warming);
          await worker.stop();
          await outbound?.close();
        },
      };
    },
  };
}
