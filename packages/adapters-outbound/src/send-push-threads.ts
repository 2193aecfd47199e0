import { Worker } from 'node:worker_threads';
import type { PreparedPush, PushMessage, PushTarget, VapidIdentity } from './send-push-prepare.js';

/** @internal What the thread is handed: the requests asked for in one turn of the event loop. */
export interface PrepareRequest {
  readonly id: number;
  readonly target: PushTarget;
  readonly message: PushMessage;
  readonly nowMs: number;
}

/** @internal What the thread answers, one per request. */
export interface PrepareAnswer {
  readonly id: number;
  readonly prepared: PreparedPush;
}

/** @internal What a preparing thread starts with. */
export interface PreparingThreadData {
  readonly vapid: VapidIdentity;
  /** Its nice value (Linux): above 0, it gives way to the threads of the process's own priority. */
  readonly nice: number;
}

/**
 * The preparing threads' nice value: on busy cores the event loop, which answers requests, goes first; a thread of
 * nice 5 still gets about a quarter of a core beside two busy threads of nice 0 (the kernel's weights: 335 to 1024),
 * twice what 250 messages a second take.
 */
export const preparingThreadNice = 5;

/** Prepares Web Push requests somewhere: in this thread or in threads of their own. */
export interface PushPreparing {
  prepare(target: PushTarget, message: PushMessage, nowMs: number): Promise<PreparedPush>;
  /** Ends the threads; what was still asked is answered as not prepared. */
  close(): Promise<void>;
}

interface PreparingThread {
  readonly worker: Worker;
  readonly pending: Map<number, (prepared: PreparedPush) => void>;
}

/**
 * Prepares Web Push requests (createPushPreparer: the encryption and the VAPID Authorization, an ECDH and an HKDF per
 * message) in `threads` worker threads, started at the first request: the event loop that serves requests only hands
 * the message over and takes the body back. The requests of one turn of the event loop go to a thread in one message,
 * to the thread with the fewest under way. The threads run at a lower priority than the event loop's (Linux, nice 5).
 * A thread is referenced only while it has requests under way (an idle one
 * keeps no process alive). A thread that stops answers what it had as not prepared (the delivery retries it) and is
 * started again at the next request.
 */
export function preparingThreads(vapid: VapidIdentity, options: { readonly threads: number }): PushPreparing {
  const count = Math.max(1, Math.floor(options.threads));
  const threads: (PreparingThread | null)[] = Array.from({ length: count }, () => null);
  let nextId = 0;
  let batch: { request: PrepareRequest; resolve: (prepared: PreparedPush) => void }[] = [];
  let closed = false;
  const notPrepared = (reason: string): PreparedPush => ({
    ok: false,
    error: `the message could not be prepared: ${reason}`,
  });

  const start = (slot: number): PreparingThread => {
    // The compiled thread, from dist/ (also under the tests, which load the sources: `tsc -b` builds it).
    const workerData: PreparingThreadData = { vapid, nice: preparingThreadNice };
    const worker = new Worker(new URL('../dist/send-push-thread.js', import.meta.url), { workerData });
    const thread: PreparingThread = { worker, pending: new Map() };
    worker.unref();
    worker.on('message', (answers: readonly PrepareAnswer[]) => {
      for (const { id, prepared } of answers) {
        thread.pending.get(id)?.(prepared);
        thread.pending.delete(id);
      }
      if (thread.pending.size === 0) worker.unref();
    });
    const stopped = (reason: string) => {
      if (threads[slot] === thread) threads[slot] = null;
      for (const resolve of thread.pending.values()) resolve(notPrepared(reason));
      thread.pending.clear();
    };
    worker.on('error', (error) => stopped(`the preparing thread failed (${error.message})`));
    worker.on('exit', (code) => stopped(`the preparing thread stopped (exit code ${code})`));
    threads[slot] = thread;
    return thread;
  };

  const flush = () => {
    const handed = batch;
    batch = [];
    if (handed.length === 0) return;
    if (closed) {
      for (const { resolve } of handed) resolve(notPrepared('the sender was closed'));
      return;
    }
    let slot = 0;
    for (let index = 1; index < count; index += 1)
      if ((threads[index]?.pending.size ?? 0) < (threads[slot]?.pending.size ?? 0)) slot = index;
    const thread = threads[slot] ?? start(slot);
    for (const { request, resolve } of handed) thread.pending.set(request.id, resolve);
    thread.worker.ref();
    thread.worker.postMessage(handed.map(({ request }) => request));
  };

  return {
    prepare: (target, message, nowMs) =>
      new Promise((resolve) => {
        if (closed) return resolve(notPrepared('the sender was closed'));
        // Handed over after this turn's I/O: every message asked for meanwhile goes in the same one.
        if (batch.length === 0) setImmediate(flush);
        nextId += 1;
        // Plain objects: the domain's subscription carries more than the thread needs.
        batch.push({
          request: {
            id: nextId,
            target: { endpoint: target.endpoint, p256dh: target.p256dh, auth: target.auth },
            message: { payload: message.payload, ttlSeconds: message.ttlSeconds, topic: message.topic },
            nowMs,
          },
          resolve,
        });
      }),
    close: async () => {
      closed = true;
      await Promise.all(threads.map((thread) => thread?.worker.terminate()));
    },
  };
}
