import { Worker } from 'node:worker_threads';
import type { PreparedPush, PushMessage, PushTarget, VapidIdentity } from './send-push-prepare.js';
import type { PushSendResult } from './send-push.js';

/** @internal What the thread is handed: the requests asked for in one turn of the event loop. */
export interface PrepareRequest {
  readonly id: number;
  readonly target: PushTarget;
  readonly message: PushMessage;
  readonly nowMs: number;
}

/** @internal What a preparing thread answers, one per request. */
export interface PrepareAnswer {
  readonly id: number;
  readonly answer: PreparedPush;
}

/** @internal What a sending thread answers, one per request. */
export interface SendAnswer {
  readonly id: number;
  readonly answer: PushSendResult;
}

/** @internal What a thread starts with: to prepare requests, or to prepare and send them (with these settings). */
export interface PreparingThreadData {
  readonly vapid: VapidIdentity;
  /** Its nice value (Linux): above 0, it gives way to the threads of the process's own priority. */
  readonly nice: number;
  readonly send?: ThreadSendSettings;
}

/** @internal What a sending thread's own sender is made with (no function crosses to a thread: the system's lookup). */
export interface ThreadSendSettings {
  readonly allowPrivateNetworks: boolean;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly userAgent: string;
  readonly keptConnections: number;
}

/** Sends Web Push messages in threads of their own: what the sender's `send` does, there. */
export interface PushSending {
  send(target: PushTarget, message: PushMessage, nowMs: number): Promise<PushSendResult>;
  warm(): void;
  close(): Promise<void>;
}

/**
 * The preparing threads' nice value, the lowest: they take the time the event loop, which answers requests, leaves.
 * At nice 5 (a quarter of a core beside two busy threads of nice 0, the kernel's weights 335 to 1024), a digest of
 * 10,000 took 30 % of the ratings' throughput on two cores in the bench, at 19 about 20 % (the same runs). The cost: on an
 * instance whose every core is busy, notifications wait for the requests (weight 15 to 1024).
 */
export const preparingThreadNice = 19;

/** Prepares Web Push requests somewhere: in this thread or in threads of their own. */
export interface PushPreparing {
  prepare(target: PushTarget, message: PushMessage, nowMs: number): Promise<PreparedPush>;
  /** Starts the threads now rather than at the first message (loading a thread's modules takes its core a moment). */
  warm(): void;
  /** Ends the threads; what was still asked is answered as not prepared. */
  close(): Promise<void>;
}

interface PoolThread<Answer> {
  readonly worker: Worker;
  readonly pending: Map<number, (answer: Answer) => void>;
}

/**
 * `threads` worker threads (send-push-thread.js, started with `data` at the first request) that answer requests:
 * the requests of one turn of the event loop go to a thread in one message, to the thread with the fewest under
 * way. A thread is referenced only while it has requests under way (an idle one keeps no process alive). A thread that
 * stops answers what it had with `stopped(reason)` and is started again at the next request.
 */
function threadPool<Answer>(
  data: PreparingThreadData,
  threadCount: number,
  stopped: (reason: string) => Answer,
): { ask(request: PrepareRequest): Promise<Answer>; warm(): void; close(): Promise<void> } {
  const count = Math.max(1, Math.floor(threadCount));
  const threads: (PoolThread<Answer> | null)[] = Array.from({ length: count }, () => null);
  let batch: { request: PrepareRequest; resolve: (answer: Answer) => void }[] = [];
  let closed = false;

  const start = (slot: number): PoolThread<Answer> => {
    // The compiled thread, from dist/ (also under the tests, which load the sources: `tsc -b` builds it).
    const worker = new Worker(new URL('../dist/send-push-thread.js', import.meta.url), { workerData: data });
    const thread: PoolThread<Answer> = { worker, pending: new Map() };
    worker.unref();
    worker.on('message', (answers: readonly { id: number; answer: Answer }[]) => {
      for (const { id, answer } of answers) {
        thread.pending.get(id)?.(answer);
        thread.pending.delete(id);
      }
      if (thread.pending.size === 0) worker.unref();
    });
    const end = (reason: string) => {
      if (threads[slot] === thread) threads[slot] = null;
      for (const resolve of thread.pending.values()) resolve(stopped(reason));
      thread.pending.clear();
    };
    worker.on('error', (error) => end(`the thread failed (${error.message})`));
    worker.on('exit', (code) => end(`the thread stopped (exit code ${code})`));
    threads[slot] = thread;
    return thread;
  };

  const flush = () => {
    const handed = batch;
    batch = [];
    if (handed.length === 0) return;
    if (closed) {
      for (const { resolve } of handed) resolve(stopped('the sender was closed'));
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

  let nextId = 0;
  return {
    ask: (request) =>
      new Promise((resolve) => {
        if (closed) return resolve(stopped('the sender was closed'));
        // Handed over after this turn's I/O: every message asked for meanwhile goes in the same one.
        if (batch.length === 0) setImmediate(flush);
        nextId += 1;
        batch.push({ request: { ...request, id: nextId }, resolve });
      }),
    warm: () => {
      if (closed) return;
      for (let slot = 0; slot < count; slot += 1) if (threads[slot] === null) start(slot);
    },
    close: async () => {
      closed = true;
      await Promise.all(threads.map((thread) => thread?.worker.terminate()));
    },
  };
}

/** Plain objects: the domain's subscription carries more than the thread needs. */
const requestOf = (target: PushTarget, message: PushMessage, nowMs: number): PrepareRequest => ({
  id: 0,
  target: { endpoint: target.endpoint, p256dh: target.p256dh, auth: target.auth },
  message: { payload: message.payload, ttlSeconds: message.ttlSeconds, topic: message.topic },
  nowMs,
});

/**
 * Prepares Web Push requests (createPushPreparer: the encryption and the VAPID Authorization, an ECDH and an HKDF per
 * message) in `threads` worker threads (see threadPool), at nice 19 on Linux: the event loop that serves requests only
 * hands the message over and takes the body back. What a thread that stops had is answered as not prepared.
 */
export function preparingThreads(vapid: VapidIdentity, options: { readonly threads: number }): PushPreparing {
  const pool = threadPool<PreparedPush>({ vapid, nice: preparingThreadNice }, options.threads, (reason) => ({
    ok: false,
    error: `the message could not be prepared: ${reason}`,
  }));
  return {
    prepare: (target, message, nowMs) => pool.ask(requestOf(target, message, nowMs)),
    warm: pool.warm,
    close: pool.close,
  };
}

/**
 * Prepares and sends Web Push messages in `threads` worker threads (see threadPool), at nice 19 on Linux: each thread
 * has a sender of its own (createPushSender with these settings, the system's lookup, its own kept connections), so
 * the event loop that serves requests does neither the encryption nor the HTTP exchange. What a thread that stops had
 * is answered as no answer (status null: retried).
 */
export function sendingThreads(
  vapid: VapidIdentity,
  settings: ThreadSendSettings,
  options: { readonly threads: number },
): PushSending {
  const pool = threadPool<PushSendResult>(
    { vapid, nice: preparingThreadNice, send: settings },
    options.threads,
    (reason) => ({ status: null, error: `the message could not be sent: ${reason}` }),
  );
  return {
    send: (target, message, nowMs) => pool.ask(requestOf(target, message, nowMs)),
    warm: pool.warm,
    close: pool.close,
  };
}
