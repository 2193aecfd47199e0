// The thread behind startPushServiceThread: the test push service (packages/test-push: VAPID checked, every message
// decrypted) on an event loop of its own, so that its CPU work does not stall the load generator's.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { startTestPushService } from '@canteen-meals/test-push';
import type { PushServiceAsk, PushServiceTold } from './push-service-in-thread.js';

// A push service runs on machines of its own: on this one it takes the time the load generator and the server leave
// (nice 19, the lowest; Linux keeps a nice value per thread, elsewhere the call would lower the whole bench).
if (process.platform === 'linux') setPriority(19);
const service = await startTestPushService(workerData as { subject: string; vapidPublicKey: string });
parentPort?.on('message', async (ask: PushServiceAsk) => {
  let told: PushServiceTold;
  if (ask.kind === 'subscribe') {
    told = { id: ask.id, subscriptions: Array.from({ length: ask.count }, () => service.newSubscription()) };
  } else if (ask.kind === 'progress') {
    let lastMs = 0;
    for (const each of service.received) lastMs = Math.max(lastMs, each.receivedAt.getTime());
    told = {
      id: ask.id,
      received: service.received.length,
      rejected: service.rejected.length,
      lastReceivedAtMs: lastMs,
    };
  } else {
    await service.close();
    told = { id: ask.id };
  }
  parentPort?.postMessage(told);
});
parentPort?.postMessage({ id: 0, origin: service.origin } satisfies PushServiceTold);
