import { Worker } from 'node:worker_threads';
import type { TestPushSubscription } from '@canteen-meals/test-push';

/** @internal What the bench asks the push service's thread. */
export type PushServiceAsk =
  | { readonly kind: 'subscribe'; readonly id: number; readonly count: number }
  | { readonly kind: 'progress'; readonly id: number }
  | { readonly kind: 'close'; readonly id: number };

/** @internal What the thread answers (id 0: it is listening). */
export interface PushServiceTold {
  readonly id: number;
  readonly origin?: string;
  readonly subscriptions?: readonly TestPushSubscription[];
  readonly received?: number;
  readonly rejected?: number;
  readonly lastReceivedAtMs?: number;
}

export interface PushServiceProgress {
  /** Messages accepted: VAPID valid, body decrypted. */
  readonly received: number;
  readonly rejected: number;
  /** When the last of them came in (milliseconds since the epoch; 0: none yet). */
  readonly lastReceivedAtMs: number;
}

export interface PushServiceInThread {
  readonly origin: string;
  /** New subscriptions, as browsers make them. */
  subscribe(count: number): Promise<readonly TestPushSubscription[]>;
  progress(): Promise<PushServiceProgress>;
  close(): Promise<void>;
}

/**
 * The test push service (startTestPushService) in a worker thread of the bench: it checks and decrypts every message
 * on its own event loop, beside the load generator's, instead of taking turns with it.
 */
export async function startPushServiceThread(options: {
  readonly subject: string;
  readonly vapidPublicKey: string;
}): Promise<PushServiceInThread> {
  const worker = new Worker(new URL('./push-service-thread.js', import.meta.url), { workerData: options });
  const waiting = new Map<number, (told: PushServiceTold) => void>();
  let failure: Error | null = null;
  const fail = (error: Error) => {
    failure = error;
    for (const settle of waiting.values()) settle({ id: -1 });
    waiting.clear();
  };
  worker.on('message', (told: PushServiceTold) => {
    waiting.get(told.id)?.(told);
    waiting.delete(told.id);
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the push service thread stopped (exit code ${code})`)));
  let nextId = 0;
  const ask = (question: (id: number) => PushServiceAsk, id = (nextId += 1)): Promise<PushServiceTold> =>
    new Promise<PushServiceTold>((resolve) => {
      waiting.set(id, resolve);
      if (id !== 0) worker.postMessage(question(id));
    }).then((told) => {
      if (failure !== null) throw failure;
      return told;
    });
  const { origin } = await ask(() => ({ kind: 'close', id: 0 }), 0);
  return {
    origin: origin!,
    subscribe: async (count) => (await ask((id) => ({ kind: 'subscribe', id, count }))).subscriptions!,
    progress: async () => {
      const told = await ask((id) => ({ kind: 'progress', id }));
      return { received: told.received!, rejected: told.rejected!, lastReceivedAtMs: told.lastReceivedAtMs! };
    },
    close: async () => {
      if (failure !== null) return;
      await ask((id) => ({ kind: 'close', id }));
      await worker.terminate();
    },
  };
}
