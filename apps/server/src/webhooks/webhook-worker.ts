import type { DeliverWebhooks, DeliveryPass, MenuChangeHub } from '@canteen-meals/domain';
import type { Clock } from '@canteen-meals/domain/ports';

/** The timers of the worker: real ones (unref'd, they never keep the process alive), or a test's. */
export interface WorkerTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: WorkerTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface WebhookWorker {
  /** Runs a pass after the one under way, if any; what tests call with a clock they move. */
  runNow(): Promise<void>;
  /**
   * Ends the timer and the subscription, stops the pass under way from claiming more, and waits for its attempts (each
   * within WEBHOOK_TIMEOUT_MS), so that the database can close after them.
   */
  stop(): Promise<void>;
}

export interface WebhookWorkerOptions {
  /** The longest wait between passes: other instances' events and retries that fall due are found by then. */
  readonly pollMs: number;
  readonly clock: Clock;
  /** A local menu write announced here recorded events: a pass follows at once, outside the request. */
  readonly menuChanges: MenuChangeHub;
  readonly timers?: WorkerTimers;
  readonly onPass?: (pass: DeliveryPass) => void;
  readonly onError: (error: unknown) => void;
}

/**
 * Delivers webhooks in the background, one pass at a time: after a local menu change, when the last pass said the
 * next delivery is due, and at least every `pollMs`. A request only commits its outbox rows; it never waits for this.
 */
export function startWebhookWorker(deliverWebhooks: DeliverWebhooks, options: WebhookWorkerOptions): WebhookWorker {
  const timers = options.timers ?? realTimers;
  let running: Promise<void> | null = null;
  let requested = false;
  let stopped = false;
  let timer: unknown = null;
  // Aborted on stop: the pass under way claims nothing more, so a shutdown waits for its attempts only.
  const stopping = new AbortController();

  const runIn = (ms: number) => {
    if (stopped) return;
    if (timer !== null) timers.clearTimeout(timer);
    timer = timers.setTimeout(() => {
      timer = null;
      void run();
    }, ms);
  };

  const pass = async () => {
    let nextRunAt: Date | null = null;
    try {
      const done = await deliverWebhooks.execute(stopping.signal);
      options.onPass?.(done);
      nextRunAt = done.nextRunAt;
    } catch (error) {
      // The database failed (the pass's leases run out by themselves): try again after the poll interval.
      options.onError(error);
    }
    const dueInMs =
      nextRunAt === null ? options.pollMs : Math.max(0, nextRunAt.getTime() - options.clock.now().getTime());
    runIn(requested ? 0 : Math.min(dueInMs, options.pollMs));
    requested = false;
  };

  const run = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    // A change during a pass may have come after its fan-out: the pass looks again at once (it may be waiting for a
    // receiver that hangs), and one more pass follows it.
    if (running !== null) {
      requested = true;
      deliverWebhooks.wake();
      return running;
    }
    running = pass().finally(() => {
      running = null;
    });
    return running;
  };

  const unsubscribe = options.menuChanges.subscribe((change, origin) => {
    // Timer, not a call: the announcing request finishes first. Other instances deliver their own events.
    if (origin === 'local' && (change.kind === 'menus' || change.kind === 'availability')) runIn(0);
  });
  runIn(0);

  return {
    runNow: async () => {
      await running;
      await run();
    },
    stop: async () => {
      stopped = true;
      stopping.abort();
      unsubscribe();
      if (timer !== null) timers.clearTimeout(timer);
      await running;
    },
  };
}
