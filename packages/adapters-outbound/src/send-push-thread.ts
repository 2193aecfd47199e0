// The thread behind preparingThreads (send-push-threads.ts): prepares each Web Push request it is handed (web-push's
// aes128gcm encryption, the cached VAPID Authorization) and answers it, so that the event loop serving requests does
// none of this CPU work. Lives as long as the sender that started it.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createPushPreparer } from './send-push-prepare.js';
import type { PrepareAnswer, PrepareRequest, PreparingThreadData } from './send-push-threads.js';

const { vapid, nice } = workerData as PreparingThreadData;
// Linux keeps a nice value per thread: this one, and only this one, gives way to the event loop's thread when the
// cores are busy. Elsewhere the call would lower the whole process, so it is not made.
if (process.platform === 'linux' && nice > 0) {
  try {
    setPriority(nice);
  } catch {
    // Not allowed here (a sandbox): the thread runs at the process's priority.
  }
}
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
      answers.push({ id, prepared: { ...prepared, body } });
    } else answers.push({ id, prepared });
  }
  parentPort?.postMessage(answers, transfer);
});
