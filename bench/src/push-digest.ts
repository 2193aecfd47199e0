// Web Push at lunch-peak scale (issue 41): 10,000 people, each subscribed once and with a favourite on today's menu,
// get their "favourites today" digest from one instance (the built server on SQLite) within 60 s of its time, against
// a push service on this machine that checks VAPID and decrypts every message (packages/test-push); meanwhile the
// ratings' throughput stays within 20 % of the same load without the digest, measured in the same run.
//
// Who does what, on two cores: the server encrypts, signs and sends in its sending thread and paces what stays on its
// event loop (docs/notifications.md, "At lunch-peak scale"); the push service runs in a worker thread of this process
// at nice 5 (push-service-in-thread.ts), so its decryption does not take turns with autocannon's event loop, which
// generates the ratings here. The server is warmed with 2 s of ratings before the baseline. The ratings' load (16
// connections, 10 s: pushRatingSeconds) starts at the digest's time, when the server's next check (every 500 ms) writes
// the 10,000 notifications and starts sending them.
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
/** Ratings per second during the digest, at least this share of the same load without it. */
export const pushRatingShareTarget = 0.8;

export interface PushDigestResult {
  readonly subscribers: number;
  /** From the digest's time (PUSH_DIGEST_TIME) to the last message decrypted at the push service. */
  readonly allReceivedMs: number;
  readonly received: number;
  readonly rejected: number;
  readonly ratingsWithout: LoadResult;
  readonly ratingsDuring: LoadResult;
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
    options.log(`bench: ${pushDigestName}: subscribing ${pushSubscribers} people and marking their favourites`);
    const subscriptions = await pushService.subscribe(pushSubscribers);
    await inBatches(pushSubscribers, 32, async (index) => {
      await send('PUT', '/api/v1/me/push-subscriptions', authorizations[index]!, subscriptions[index]);
      await send('POST', '/api/v1/mark-meal', authorizations[index]!, { meal_id: 1 + (index % 3), marked: true });
    });
  } finally {
    await seeding.stop();
  }

  // The digest's time: the next minute on Berlin's clock, at least 20 s ahead (the ratings' baseline runs just before).
  const due = new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
  const server = await startServer({
    name: 'push-digest',
    databaseUrl,
    jwtSecret: options.jwtSecret,
    probe,
    env: env(berlinTime(due), '500'),
  });
  options.cleanups.push(() => server.stop());
  const ratings = rateMealScenario('rate-meal-during-push', { authorizations, random: seededRandom(44) }, [1, 2, 3]);
  // A load of 2 s first, not measured: the baseline then meets a server whose code is compiled, as the load during the
  // digest does. The baseline ends 2 s before the digest's time: the two loads a few seconds apart, so that whatever
  // else the machine does changes little between them.
  await runLoad(server, ratings, { seconds: 2, connections: 16 });
  await new Promise((resolve) =>
    setTimeout(resolve, Math.max(0, due.getTime() - options.ratingSeconds * 1000 - 2_000 - Date.now())),
  );
  const ratingsWithout = await runLoad(server, ratings, { seconds: options.ratingSeconds, connections: 16 });
  if (Date.now() > due.getTime())
    throw new Error(`${pushDigestName}: the baseline ran past the digest's time; shorten BENCH_SECONDS`);
  await new Promise((resolve) => setTimeout(resolve, due.getTime() - Date.now()));
  options.log(`bench: ${pushDigestName}: the digest is due at ${berlinTime(due)} (Berlin); ratings load during it`);
  const during = runLoad(server, ratings, { seconds: options.ratingSeconds, connections: 16 });
  const deadline = due.getTime() + 3 * pushDigestTargetMs;
  let progress = await pushService.progress();
  while (progress.received < pushSubscribers && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    progress = await pushService.progress();
  }
  const ratingsDuring = await during;
  return {
    subscribers: pushSubscribers,
    allReceivedMs:
      progress.received < pushSubscribers ? Number.POSITIVE_INFINITY : progress.lastReceivedAtMs - due.getTime(),
    received: progress.received,
    rejected: progress.rejected,
    ratingsWithout,
    ratingsDuring,
  };
}

/** What failed the run itself (not a target): rejected messages mean the encryption or VAPID is wrong. */
export function pushDigestFailures(result: PushDigestResult): string[] {
  const failures: string[] = [];
  if (result.rejected > 0)
    failures.push(`${pushDigestName}: the push service rejected ${result.rejected} messages (VAPID or encryption)`);
  for (const [label, load] of [
    ['without', result.ratingsWithout],
    ['during', result.ratingsDuring],
  ] as const) {
    if (load.failures > 0) failures.push(`${pushDigestName}: ratings ${label} the digest: ${load.failureDetail}`);
  }
  return failures;
}

export function pushDigestTargets(result: PushDigestResult | undefined) {
  if (result === undefined) return [];
  const share = result.ratingsDuring.requestsPerSecond / result.ratingsWithout.requestsPerSecond;
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
      what: 'Web Push: rate-meal throughput during the digest / without it',
      target: `>= ${pushRatingShareTarget}`,
      measured: `${share.toFixed(2)} (${result.ratingsDuring.requestsPerSecond.toFixed(0)} / ${result.ratingsWithout.requestsPerSecond.toFixed(0)} req/s)`,
      pass: share >= pushRatingShareTarget,
    },
  ];
}

export function pushDigestFacts(result: PushDigestResult | undefined) {
  if (result === undefined) return [];
  return [
    {
      what: 'Web Push digest: rate-meal p99 without and during it',
      value: `${result.ratingsWithout.p99Ms} ms, ${result.ratingsDuring.p99Ms} ms`,
    },
  ];
}
