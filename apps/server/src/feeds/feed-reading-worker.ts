// The thread behind readFeedInWorker: reads one feed's bytes and answers the feed, or why it cannot be read. Started
// per feed and ended when it answers, or terminated when it outlives its budget.
import { parentPort, workerData } from 'node:worker_threads';
import { OpenMensaFeedError, readOpenMensaFeed } from '@canteen-meals/adapters-openmensa';
import type { FeedReadingAnswer } from './worker-feed-reader.js';

const bytes = new Uint8Array(workerData as ArrayBuffer);
let answer: FeedReadingAnswer;
try {
  answer = { ok: true, feed: readOpenMensaFeed(bytes) };
} catch (error) {
  answer =
    error instanceof OpenMensaFeedError
      ? { ok: false, problems: error.problems }
      : { ok: false, message: error instanceof Error ? error.message : String(error) };
}
parentPort?.postMessage(answer);
