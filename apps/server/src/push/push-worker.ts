import type { DigestRun, PushPass, PushUseCaseSet } from '@canteen-meals/domain';
import type { Clock } from '@canteen-meals/domain/ports';
import type { WorkerTimers } from '../webhooks/webhook-worker.js';

const realTimers: WorkerTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface PushWorker {
  /** A digest check and a delivery pass after the one under way, if any: what tests call with a clock they move. */
  runNow(): Promise<void>;
  /** Ends the timer, stops the pass under way from claiming more, and waits for its attempts. */
  stop(): Promise<void>;
}

export interface PushWorkerOptions {
  readonly pollMs: number;
  readonly clock: Clock;
  readonly timers?: WorkerTimers;
  readonly onDigests?: (run: DigestRun) => void;
  readonly onPass?: (pass: PushPass) => void;
  readonly onError: (error: unknown) => void;
}

/**
 * Web Push in the background, one round at a time: the canteens' digests that fall due (each canteen day once, across
 * instances), then every waiting notification this instance can claim; again at once when a pass stopped at its bound,
 * when `runNow` asks (a sold-out notice queued), and at least every `pollMs`.
 */
export function startPushWorker(
  push: Pick<PushUseCaseSet, 'runPushDigests' | 'deliverPushes'>,
  options: PushWorkerOptions,
): PushWorker {
  const timers = options.timers ?? realTimers;
  const stopping = new AbortController();
  let running: Promise<void> | null = null;
  let again = false;
  let timer: unknown = null;

  const schedule = (ms: number) => {
    if (stopping.signal.aborted) return;
    if (timer !== null) timers.clearTimeout(timer);
    timer = timers.setTimeout(() => {
      timer = null;
      void run();
    }, ms);
  };

  const round = async () => {
    let more = false;
    try {
      const digests = await push.runPushDigests.execute(options.clock.now());
      options.onDigests?.(digests);
      const pass = await push.deliverPushes.execute(stopping.signal);
      options.onPass?.(pass);
      more = pass.more;
    } catch (error) {
      // The database or a push service failed: the leases run out by themselves; try again after the poll interval.
      options.onError(error);
    }
    schedule(more || again ? 0 : options.pollMs);
    again = false;
  };

  const run = (): Promise<void> => {
    if (stopping.signal.aborted) return Promise.resolve();
    if (running !== null) {
      again = true;
      return running;
    }
    running = round().finally(() => {
      running = null;
    });
    return running;
  };

  schedule(0);
  return {
    runNow: async () => {
      await running;
      await run();
    },
    stop: async () => {
      stopping.abort();
      if (timer !== null) timers.clearTimeout(timer);
      await running;
    },
  };
}
