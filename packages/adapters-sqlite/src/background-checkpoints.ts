import { Worker } from 'node:worker_threads';
import { systemClock } from '@canteen-meals/domain';
import type { Clock } from '@canteen-meals/domain/ports';
import type { SqliteSynchronous } from './open-database.js';

export interface BackgroundCheckpointOptions {
  /** Time between two checkpoints (default 100 ms). */
  readonly intervalMs?: number;
  /** As the serving connection's: a checkpoint syncs the file unless synchronous is off. */
  readonly synchronous?: SqliteSynchronous;
  /**
   * A checkpoint failed, or the thread stopped: the serving connection's own automatic checkpoints remain. Called at
   * most once per `failureReportIntervalMs`, with the latest message and how many failures it stands for.
   */
  readonly onFailure?: (message: string, failures: number) => void;
  /** Least time between two `onFailure` calls (default one minute): a failing disk fails every checkpoint. */
  readonly failureReportIntervalMs?: number;
  readonly clock?: Clock;
}

export interface BackgroundCheckpoints {
  /** Stops the thread and closes its connection; call it before closing the serving connection. */
  stop(): Promise<void>;
}

/** @internal What the worker is started with. */
export interface CheckpointWorkerData {
  readonly path: string;
  readonly intervalMs: number;
  readonly synchronous: SqliteSynchronous;
}

export const defaultCheckpointIntervalMs = 100;
export const defaultFailureReportIntervalMs = 60_000;

/**
 * Passes the first failure on at once, then at most one per `intervalMs`, each with the count of failures since the
 * last one passed on (the one it reports included). Failures in between are only counted.
 */
export function throttleFailures(
  report: (message: string, failures: number) => void,
  intervalMs: number,
  clock: Clock,
): (message: string) => void {
  let lastReportAt: number | undefined;
  let unreported = 0;
  return (message) => {
    unreported += 1;
    const now = clock.now().getTime();
    if (lastReportAt !== undefined && now - lastReportAt < intervalMs) return;
    lastReportAt = now;
    const failures = unreported;
    unreported = 0;
    report(message, failures);
  };
}

/**
 * Checkpoints the WAL of the database file at `path` from a worker thread. A checkpoint copies the WAL's pages into
 * the database file and syncs both: done by the serving connection, it stops the event loop for its whole length.
 * Run here, the serving connection's automatic checkpoint (every 10 000 pages) is never reached while the thread
 * keeps up, and stays as the safety net if it does not. Several processes on one file may each run one.
 */
export function startBackgroundCheckpoints(
  path: string,
  options: BackgroundCheckpointOptions = {},
): BackgroundCheckpoints {
  const workerData: CheckpointWorkerData = {
    path,
    intervalMs: options.intervalMs ?? defaultCheckpointIntervalMs,
    synchronous: options.synchronous ?? 'normal',
  };
  // The compiled worker, from dist/ or (under the tests, which load the sources) from src/.
  const worker = new Worker(new URL('../dist/checkpoint-worker.js', import.meta.url), { workerData });
  // The thread never keeps the process alive: shutting down without stop() loses nothing but a checkpoint.
  worker.unref();
  const onFailure = throttleFailures(
    options.onFailure ?? (() => {}),
    options.failureReportIntervalMs ?? defaultFailureReportIntervalMs,
    options.clock ?? systemClock,
  );
  let stopping = false;
  worker.on('message', (message: { failure: string }) => onFailure(message.failure));
  worker.on('error', (error) => onFailure(error.message));
  worker.on('exit', (code) => {
    if (!stopping) onFailure(`the checkpoint thread stopped (exit code ${code})`);
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      if (stopping) return;
      stopping = true;
      // Held again while it stops: otherwise a process with nothing else to do would end before the thread did.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
