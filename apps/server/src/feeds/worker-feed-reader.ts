import { Worker } from 'node:worker_threads';
import { OpenMensaFeedError, type FeedProblem, type OpenMensaFeed } from '@canteen-meals/adapters-openmensa/writer';
import type { MenuFeedReader } from '@canteen-meals/domain/ports';

/**
 * What reading one feed may take. Node measures no CPU time per thread, so time is a deadline on the thread's life:
 * it bounds the CPU the thread can spend. Memory is the thread's own heap limit (V8 ends it past that).
 */
export interface FeedReadingBudget {
  readonly timeMs: number;
  readonly heapMb: number;
}

/**
 * A 10 000-meal feed (the most a feed may list, about 2 MB) reads in about half a second on one core; ten seconds
 * leave room for a loaded machine, and its tree fits the heap many times over.
 */
export const defaultFeedReadingBudget: FeedReadingBudget = { timeMs: 10_000, heapMb: 256 };

/** The thread outlived its budget or its heap and was ended: nothing of the feed is kept. */
export class FeedReadingBudgetError extends Error {
  override readonly name = 'FeedReadingBudgetError';
}

/** @internal What the thread answers. */
export type FeedReadingAnswer =
  | { readonly ok: true; readonly feed: OpenMensaFeed }
  | { readonly ok: false; readonly problems: readonly FeedProblem[] }
  | { readonly ok: false; readonly message: string };

/**
 * Reads an OpenMensa feed (adapters-openmensa's readOpenMensaFeed) in a thread of its own: the event loop that serves
 * requests goes on while the bytes are decoded, parsed and checked, and a feed that would take longer than its
 * budget (a hostile or broken one) has its thread terminated. Throws what readOpenMensaFeed throws for a feed it
 * refuses, and a FeedReadingBudgetError for a thread ended by its budget.
 */
export function readFeedInWorker(
  bytes: Uint8Array,
  budget: FeedReadingBudget = defaultFeedReadingBudget,
): Promise<OpenMensaFeed> {
  // A copy of its own, handed over without another: the body may be a view into a larger (pooled) buffer. Not
  // bytes.slice(): on a Buffer that is a view, and handing it over would detach the caller's memory.
  const own = new Uint8Array(bytes).buffer;
  // The compiled thread, from dist/ (also under the tests, which load the sources: `tsc -b` builds it).
  const worker = new Worker(new URL('../../dist/feeds/feed-reading-worker.js', import.meta.url), {
    workerData: own,
    transferList: [own],
    resourceLimits: {
      maxOldGenerationSizeMb: budget.heapMb,
      maxYoungGenerationSizeMb: Math.min(32, budget.heapMb),
      stackSizeMb: 4,
    },
  });
  return new Promise<OpenMensaFeed>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      outcome();
      void worker.terminate();
    };
    const deadline = setTimeout(
      () =>
        settle(() =>
          reject(
            new FeedReadingBudgetError(
              `reading the feed took longer than ${budget.timeMs} ms: stopped, nothing imported`,
            ),
          ),
        ),
      budget.timeMs,
    );
    worker.once('message', (answer: FeedReadingAnswer) =>
      settle(() => {
        if (answer.ok) resolve(answer.feed);
        else reject('problems' in answer ? new OpenMensaFeedError(answer.problems) : new Error(answer.message));
      }),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new FeedReadingBudgetError(
                `reading the feed needed more than ${budget.heapMb} MB: stopped, nothing imported`,
              )
            : error,
        ),
      ),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`the feed reading thread stopped (exit code ${code}) without an answer`))),
    );
  });
}

/** Menu feeds are OpenMensa v2 XML, read off the request thread within a budget (see readFeedInWorker). */
export function workerFeedReader(budget: FeedReadingBudget = defaultFeedReadingBudget): MenuFeedReader {
  return { read: async (bytes) => ({ days: (await readFeedInWorker(bytes, budget)).days }) };
}
