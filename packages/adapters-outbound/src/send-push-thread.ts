// The thread behind preparingThreads and sendingThreads (send-push-threads.ts): prepares each Web Push request it is
// handed (web-push's aes128gcm encryption, the cached VAPID Authorization) and answers it, or, when started to send,
// also sends it through a sender of its own (the guarded client, kept connections) and answers the outcome; so that
// the event loop serving requests does none of this work. Lives as long as the sender that started it.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createPushPreparer } from './send-push-prepare.js';
import type { PrepareAnswer, PrepareRequest, PreparingThreadData, SendAnswer } from './send-push-threads.js';
import { createPushSender } from './send-push.js';

const { vapid, nice, send } = workerData as PreparingThreadData;
// Linux keeps a nice value per thread: this one, and only this one, gives way to the event loop's thread when the
// cores are busy. Elsewhere the call would lower the whole process, so it is not made.
if (process.platform === 'linux' && nice > 0) {
  try {
    setPriority(nice);
  } catch {
    // Not allowed here (a sandbox): the thread runs at the process's priority.
  }
}

if (send === undefined) {
  const prepare = createPushPreparer(vapid);
  parentPort?.on('message', (requests: readonly PrepareRequest[]) => {
    const answers: PrepareAnswer[] = [];
    const transfer: ArrayBuffer[] = [];
    for (const { id, target, message, nowMs } of requests) {
      const prepared = prepare(target, message, nowMs);
      if (prepared.ok && prepared.body !== null) {
        // A copy of its own, handed over without another: web-push's body is a view into a pooled buffer.
        const body = new Uint8Array(prepared.body);
        transfer.push(body.buffer);
        answers.push({ id, answer: { ...prepared, body } });
      } else answers.push({ id, answer: prepared });
    }
    parentPort?.postMessage(answers, transfer);
  });
} else {
  // The sender's clock is the caller's: the request's instant while the request is prepared (synchronously, within
  // send), then the offset from this thread's clock as of the last request (a Retry-After date).
  let offsetMs = 0;
  let pinnedMs: number | null = null;
  const sender = createPushSender({
    vapid,
    ...send,
    now: () => new Date(pinnedMs ?? Date.now() + offsetMs),
  });
  let answers: SendAnswer[] = [];
  const flush = () => {
    const handed = answers;
    answers = [];
    parentPort?.postMessage(handed);
  };
  const answer = (id: number, sent: SendAnswer['answer']) => {
    // The outcomes of one turn go back in one message.
    if (answers.length === 0) setImmediate(flush);
    answers.push({ id, answer: sent });
  };
  parentPort?.on('message', (requests: readonly PrepareRequest[]) => {
    for (const { id, target, message, nowMs } of requests) {
      offsetMs = nowMs - Date.now();
      pinnedMs = nowMs;
      const sending = sender.send(target, message);
      pinnedMs = null;
      sending.then(
        (sent) => answer(id, sent),
        // The sender throws for nothing a push service does: a bug, answered as no answer (retried).
        (error: unknown) => answer(id, { status: null, error: error instanceof Error ? error.message : String(error) }),
      );
    }
  });
}
