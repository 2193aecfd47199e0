// Web Push at lunch-peak scale (issue 41): 10,000 people, each subscribed once and with a favourite on today's menu,
// get their "favourites today" digest from one instance (the built server on SQLite) within 60 s of its time, against
// a push service on this machine that checks VAPID and decrypts every message (packages/test-push); meanwhile the
// ratings' throughput stays within 20 % of the same load without the digest, measured in the same run.
//
// Who does what, on two cores: the server encrypts, signs and sends in its sending thread and paces what stays on its
// event loop (docs/notifications.md, "At lunch-peak scale"); the push service runs in a worker thread of this process
// at nice 19 (push-service-in-thread.ts): it stands in for a service on machines of its own, so its decryption takes
// the cores' spare time and does not take turns with autocannon's event loop, which generates the ratings here.
// Everyone has rated the three meals before (seeding), so that the loads change ratings rather than add them, and the
// server is warmed with 12 s of ratings (pushWarmUpSeconds) right before the baseline. The ratings' load
// (BENCH_CONNECTIONS connections, as the bench's other loads; 10 s: pushRatingSeconds) starts at the digest's time, when
// the server's next check (every 500 ms) writes the 10,000 notifications and starts sending them. The baseline is the
// same load without the digest twice, before it and once every message is received: this machine's speed drifts by a
// fifth from one minute to the next (other tenants of its host), and the mean of one measurement on each side cancels
// a steady drift.
import { createECDH } from 'node:crypto';
import { join } from 'node:path';
import { adminScope, signHmacToken } from '@canteen-meals/adapters-http';
import { runLoad, type LoadResult } from './load.js';
import type { ProbeRequest, Target } from './processes.js';
import { startPushServiceThread } from './push-service-in-thread.js';
import { seededRandom } from './random.js';
import { rateMealScenario } from './scenarios.js';
import { startServer } from './server-under-test.js';

export const pushDigestName = 'push-digest-10k';
export const pushSubscribers = 10_000;
/** All digests received within this of their time. */
export const pushDigestTargetMs = 60_000;
/** How long the ratings are measured, without the digest and from its time on: most of its delivery. */
export const pushRatingSeconds = 10;
/**
 * The ratings' load before the first measurement, not measured: until the server's code is compiled and its caches
 * are full. After 2 s the server was still a third faster 30 s later, which made the baseline low.
 */
export const pushWarmUpSeconds = 12;
/** Ratings per second during the digest, at least this share of the same load without it. */
export const pushRatingShareTarget = 0.8;

export interface PushDigestResult {
  readonly subscribers: number;
  /** From the digest's time (PUSH_DIGEST_TIME) to the last message decrypted at the push service. */
  readonly allReceivedMs: number;
  readonly received: number;
  readonly rejected: number;
  /** The same load without the digest: before its time, and after its last message was received. */
  readonly ratingsBefore: LoadResult;
  readonly ratingsAfter: LoadResult;
  readonly ratingsDuring: LoadResult;
}

/** Ratings per second without the digest: the mean of the measurements before and after it. */
export function ratingsWithout(result: PushDigestResult): number {
  return (result.ratingsBefore.requestsPerSecond + result.ratingsAfter.requestsPerSecond) / 2;
}

const subject = 'mailto:bench@meals.example.edu';
const hour = 60 * 60 * 1000;

/** HH:MM on Berlin's clock (the default canteen's), of an instant. */
const berlinTime = (instant: Date) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Berlin',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(instant);

/** Runs `count` calls, `concurrency` at a time. */
async function inBatches(count: number, concurrency: number, call: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = next;
        next += 1;
        await call(index);
      }
    }),
  );
}

export async function measurePushDigest(options: {
  readonly workDir: string;
  readonly jwtSecret: string;
  readonly log: (line: string) => void;
  readonly ratingSeconds: number;
  /** The ratings' connections: the bench's BENCH_CONNECTIONS, as in its other loads. */
  readonly connections: number;
  readonly cleanups: Array<() => Promise<void>>;
}): Promise<PushDigestResult> {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const publicKey = ecdh.getPublicKey().toString('base64url');
  const privateKey = Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()])
    .subarray(-32)
    .toString('base64url');
  const pushService = await startPushServiceThread({ subject, vapidPublicKey: publicKey });
  options.cleanups.push(() => pushService.close());
  const databaseUrl = `sqlite:${join(options.workDir, 'push-digest.db')}`;
  const bearer = (sub: string, scope?: string) =>
    `Bearer ${signHmacToken(options.jwtSecret, { sub, scope, expiresInMs: 2 * hour })}`;
  const users = Array.from({ length: pushSubscribers }, (_, index) => `push-user-${index}`);
  const authorizations = users.map((user) => bearer(user));
  const probe: ProbeRequest = { method: 'GET', path: '/api/v1/push', headers: {} };
  const env = (digestTime: string, pollMs: string) => ({
    WEB_PUSH_PUBLIC_KEY: publicKey,
    WEB_PUSH_PRIVATE_KEY: privateKey,
    WEB_PUSH_SUBJECT: subject,
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
    PUSH_DIGEST_TIME: digestTime,
    PUSH_POLL_MS: pollMs,
    FEED_CHECK_INTERVAL_S: '0',
  });

  // Seeding, with the push worker off: today's lunch, each person's favourite on it, and a subscription each.
  const seeding: Target = await startServer({
    name: 'push-seeding',
    databaseUrl,
    jwtSecret: options.jwtSecret,
    probe,
    env: env('10:30', '0'),
  });
  try {
    const send = async (method: string, path: string, authorization: string, body: unknown) => {
      const response = await fetch(`${seeding.url}${path}`, {
        method,
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    };
    const now = Date.now();
    await send('PUT', '/api/v1/admin/meals', bearer('bench-admin', adminScope), {
      meals: [1, 2, 3].map((id) => ({
        meal_id: id,
        name: ['Currywurst', 'Lentil soup', 'Vegetable curry'][id - 1],
        served_at: new Date(now - id * 60_000).toISOString(),
        rateable: true,
      })),
    });
    options.log(`bench: ${pushDigestName}: subscribing ${pushSubscribers} people, marking their favourites, rating`);
    const subscriptions = await pushService.subscribe(pushSubscribers);
    await inBatches(pushSubscribers, 32, async (index) => {
      await send('PUT', '/api/v1/me/push-subscriptions', authorizations[index]!, subscriptions[index]);
      await send('POST', '/api/v1/mark-meal', authorizations[index]!, { meal_id: 1 + (index % 3), marked: true });
      // Each person's ratings of the three meals: the loads below then change ratings more than they add them, from
      // the first measurement to the last alike (a table still filling would make each one faster than the one before).
      for (const mealId of [1, 2, 3])
        await send('POST', '/api/v1/rate-meal', authorizations[index]!, { meal_id: mealId, rating: 1 + (index % 5) });
    });
  } finally {
    await seeding.stop();
  }

  // The digest's time: the next minute on Berlin's clock, at least 20 s ahead (the ratings' baseline runs just before).
  const due = new Date(Math.ceil((Date.now() + 20_000 + pushWarmUpSeconds * 1000) / 60_000) * 60_000);
  const server = await startServer({
    name: 'push-digest',
    databaseUrl,
    jwtSecret: options.jwtSecret,
    probe,
    env: env(berlinTime(due), '500'),
  });
  options.cleanups.push(() => server.stop());
  const ratings = rateMealScenario('rate-meal-during-push', { authorizations, random: seededRandom(44) }, [1, 2, 3]);
  // The load of pushWarmUpSeconds first, not measured, right before the baseline (the wait for the digest's minute is
  // before it): the baseline then meets a server whose code is compiled, as the load during the digest does. The
  // baseline ends 2 s before the digest's time.
  const until = (instant: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, instant - Date.now())));
  const baselineAt = due.getTime() - options.ratingSeconds * 1000 - 2_000;
  await until(baselineAt - pushWarmUpSeconds * 1000 - 1_000);
  await runLoad(server, ratings, { seconds: pushWarmUpSeconds, connections: options.connections });
  await until(baselineAt);
  const ratingsBefore = await runLoad(server, ratings, {
    seconds: options.ratingSeconds,
    connections: options.connections,
  });
  if (Date.now() > due.getTime())
    throw new Error(`${pushDigestName}: the baseline ran past the digest's time; shorten BENCH_SECONDS`);
  await new Promise((resolve) => setTimeout(resolve, due.getTime() - Date.now()));
  options.log(`bench: ${pushDigestName}: the digest is due at ${berlinTime(due)} (Berlin); ratings load during it`);
  const during = runLoad(server, ratings, { seconds: options.ratingSeconds, connections: options.connections });
  const deadline = due.getTime() + 3 * pushDigestTargetMs;
  let progress = await pushService.progress();
  while (progress.received < pushSubscribers && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    progress = await pushService.progress();
  }
  const ratingsDuring = await during;
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const ratingsAfter = await runLoad(server, ratings, {
    seconds: options.ratingSeconds,
    connections: options.connections,
  });
  return {
    subscribers: pushSubscribers,
    allReceivedMs:
      progress.received < pushSubscribers ? Number.POSITIVE_INFINITY : progress.lastReceivedAtMs - due.getTime(),
    received: progress.received,
    rejected: progress.rejected,
    ratingsBefore,
    ratingsAfter,
    ratingsDuring,
  };
}

/** What failed the run itself (not a target): rejected messages mean the encryption or VAPID is wrong. */
export function pushDigestFailures(result: PushDigestResult): string[] {
  const failures: string[] = [];
  if (result.rejected > 0)
    failures.push(`${pushDigestName}: the push service rejected ${result.rejected} messages (VAPID or encryption)`);
  for (const [label, load] of [
    ['before', result.ratingsBefore],
    ['during', result.ratingsDuring],
    ['after', result.ratingsAfter],
  ] as const) {
    if (load.failures > 0) failures.push(`${pushDigestName}: ratings ${label} the digest: ${load.failureDetail}`);
  }
  return failures;
}

export function pushDigestTargets(result: PushDigestResult | undefined) {
  if (result === undefined) return [];
  const without = ratingsWithout(result);
  const share = result.ratingsDuring.requestsPerSecond / without;
  return [
    {
      what: `Web Push: ${result.subscribers.toLocaleString('en')} digests from one instance, decrypted at a local push service`,
      target: `<= ${pushDigestTargetMs / 1000} s after their time`,
      measured: Number.isFinite(result.allReceivedMs)
        ? `${(result.allReceivedMs / 1000).toFixed(1)} s (${result.received} received)`
        : `${result.received} of ${result.subscribers} received`,
      pass: Number.isFinite(result.allReceivedMs) && result.allReceivedMs <= pushDigestTargetMs,
    },
    {
      what: 'Web Push: rate-meal throughput during the digest / without it (mean of before and after)',
      target: `>= ${pushRatingShareTarget}`,
      measured: `${share.toFixed(2)} (${result.ratingsDuring.requestsPerSecond.toFixed(0)} / ${without.toFixed(0)} req/s)`,
      pass: share >= pushRatingShareTarget,
    },
  ];
}

export function pushDigestFacts(result: PushDigestResult | undefined) {
  if (result === undefined) return [];
  return [
    {
      what: 'Web Push digest: rate-meal before, during and after it',
      value: [result.ratingsBefore, result.ratingsDuring, result.ratingsAfter]
        .map((load) => `${load.requestsPerSecond.toFixed(0)} req/s (p99 ${load.p99Ms} ms)`)
        .join(', '),
    },
  ];
}
