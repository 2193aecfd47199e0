// The thread behind startBackgroundCheckpoints: its own connection to the file, checkpointing on a timer, so that
// the serving thread never waits for a checkpoint's copying and fsyncs.
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import type { CheckpointWorkerData } from './background-checkpoints.js';
import { synchronousPragma } from './open-database.js';

const { path, intervalMs, synchronous } = workerData as CheckpointWorkerData;
const db = new BetterSqlite3(path, { fileMustExist: true });
db.pragma(synchronousPragma(synchronous));
// A checkpoint that finds the file busy is simply tried again at the next tick.
db.pragma('busy_timeout = 0');
// PASSIVE: copy what no reader still needs, without waiting for anybody and without blocking the writer.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');

const timer = setInterval(() => {
  try {
    checkpoint.run();
  } catch (error) {
    parentPort?.postMessage({ failure: error instanceof Error ? error.message : String(error) });
  }
}, intervalMs);

parentPort?.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
