import { Agent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { pick } from './random.js';
import { cpuSeconds, residentBytes, type Target } from './processes.js';

/**
 * Issue 17's live-stream measurement: `streams` Server-Sent Events streams of one day held open on one instance while
 * ratings of the day's meals arrive at a steady rate. Not a pair against a reference: it reports the server's memory
 * per stream and how long a rating takes to show on the streams.
 */
export interface LiveOptions {
  readonly streams: number;
  /** Streams asked for at once; the next batch waits for every snapshot of this one (no SYN flood, no 511 backlog). */
  readonly batch: number;
  readonly ratingsPerSecond: number;
  readonly seconds: number;
  readonly day: string;
  readonly mealIds: readonly number[];
  /** `Bearer <token>` for each rating: each a user of its own, so that every rating adds one to its meal's count. */
  readonly authorization: (index: number) => string;
  readonly random: () => number;
  readonly log: (line: string) => void;
}

export type LiveOutcome =
  | { readonly missing: true; readonly reason: string }
  | ({ readonly missing: false } & LiveResult);

export interface LiveResult {
  readonly streamsHeld: number;
  readonly openSeconds: number;
  /** VmRSS of the server (bytes) before the first stream, with every stream open, and after the ratings. */
  readonly rssBefore: number | undefined;
  readonly rssOpen: number | undefined;
  readonly rssAfterRatings: number | undefined;
  readonly ratingsSent: number;
  /** Answers other than 200 and request errors of the ratings. */
  readonly ratingFailures: readonly string[];
  /** `stats` events that showed at least one new rating to a stream: each is one latency sample. */
  readonly deliveries: number;
  /** Every `stats` event received, including those that showed no new rating of the meal (its dish changed). */
  readonly statsEvents: number;
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number } | undefined;
  /** Seconds from sending the ratings until the last was answered and the streams had shown it (or 10 s more). */
  readonly ratingPhaseSeconds: number;
  /** Share of one core the server and this process (the streams' reader and the ratings' sender) used in that phase. */
  readonly serverCpu: number | undefined;
  readonly benchCpu: number;
  /** Round trips of the ratings (sent to answered), in milliseconds. */
  readonly ratingAnswerMs: { readonly p50: number; readonly p99: number } | undefined;
  /** Streams that ended before the bench closed them: the server drops a reader that falls 64 KiB behind. */
  readonly dropped: number;
  /** Streams that could not be opened (status, error): the text of the first few. */
  readonly openFailures: readonly string[];
  /** Ratings that a stream still open at the end never showed (after waiting for the last window). */
  readonly undelivered: number;
}

/** How long after the last rating's answer the streams may take to show every rating before the rest count as lost. */
const drainMs = 10_000;

/** What the live route answers before issue 17: a 404 `not_found`. */
const missingRouteStatus = 404;

export async function measureLiveStreams(server: Target, options: LiveOptions): Promise<LiveOutcome> {
  const path = `/api/v1/live?canteen=default&date=${options.day}`;
  const url = new URL(path, server.url);
  // One socket per stream: a stream never ends, so it never hands its socket back.
  const agent = new Agent({ keepAlive: true, maxSockets: options.streams + 16, maxFreeSockets: 16 });
  const ledger = new RatingLedger(options.mealIds);
  const streams: LiveStream[] = [];
  try {
    // One stream opened and closed first: the route's code is loaded and the channel's first read done before the
    // resident set is taken as the baseline.
    const probe = await openStream(url, agent, ledger);
    if (probe.status === missingRouteStatus)
      return { missing: true, reason: `GET ${path} answers 404: the server has no live statistics yet` };
    if (probe.failure !== undefined) throw new Error(`live: the first stream failed: ${probe.failure}`);
    probe.close();
    await sleep(200);
    const rssBefore = residentBytes(server.pid);

    const openFailures: string[] = [];
    const startedOpening = performance.now();
    for (let first = 0; first < options.streams; first += options.batch) {
      const count = Math.min(options.batch, options.streams - first);
      const opened = await Promise.all(Array.from({ length: count }, () => openStream(url, agent, ledger)));
      for (const stream of opened) {
        if (stream.failure === undefined) streams.push(stream);
        else openFailures.push(stream.failure);
      }
      if (openFailures.length > 0) break;
    }
    const openSeconds = (performance.now() - startedOpening) / 1000;
    options.log(`bench: live: ${streams.length} streams open in ${openSeconds.toFixed(1)} s`);
    // A moment for the server to settle (no GC can be asked of it: it runs without --expose-gc).
    await sleep(1000);
    const rssOpen = residentBytes(server.pid);

    const ratingFailures: string[] = [];
    const ratingAgent = new Agent({ keepAlive: true, maxSockets: 16 });
    const answers: Promise<void>[] = [];
    const total = Math.round(options.ratingsPerSecond * options.seconds);
    const interval = 1000 / options.ratingsPerSecond;
    const answerTimes: number[] = [];
    const serverCpuBefore = cpuSeconds(server.pid);
    const benchCpuBefore = process.cpuUsage();
    const startedRating = performance.now();
    for (let i = 0; i < total && openFailures.length === 0; i++) {
      const due = startedRating + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const mealId = pick(options.random, options.mealIds);
      const body = JSON.stringify({ meal_id: mealId, rating: 1 + Math.floor(options.random() * 5) });
      const sentAt = performance.now();
      ledger.sent(mealId, sentAt);
      answers.push(
        postRating(server.url, ratingAgent, options.authorization(i), body).then((failure) => {
          answerTimes.push(performance.now() - sentAt);
          if (failure !== undefined) ratingFailures.push(failure);
        }),
      );
    }
    await Promise.all(answers);
    ratingAgent.destroy();
    // The last window (250 ms) closes after the last answer; on a busy machine the streams may need seconds to show it.
    const deadline = performance.now() + drainMs;
    while (
      performance.now() < deadline &&
      streams.some((stream) => !stream.ended && ledger.behind(stream.delivered) > 0)
    )
      await sleep(100);
    const ratingPhaseSeconds = (performance.now() - startedRating) / 1000;
    const serverCpuAfter = cpuSeconds(server.pid);
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const rssAfterRatings = residentBytes(server.pid);
    answerTimes.sort((a, b) => a - b);

    const open = streams.filter((stream) => !stream.ended);
    const samples = ledger.latencies();
    return {
      missing: false,
      streamsHeld: streams.length,
      openSeconds,
      rssBefore,
      rssOpen,
      rssAfterRatings,
      ratingsSent: ledger.total,
      ratingFailures,
      ratingPhaseSeconds,
      serverCpu:
        serverCpuBefore === undefined || serverCpuAfter === undefined
          ? undefined
          : (serverCpuAfter - serverCpuBefore) / ratingPhaseSeconds,
      benchCpu: (benchCpu.user + benchCpu.system) / 1e6 / ratingPhaseSeconds,
      ratingAnswerMs:
        answerTimes.length === 0 ? undefined : { p50: quantile(answerTimes, 0.5), p99: quantile(answerTimes, 0.99) },
      deliveries: samples.length,
      statsEvents: ledger.statsEvents,
      latencyMs:
        samples.length === 0
          ? undefined
          : { p50: quantile(samples, 0.5), p99: quantile(samples, 0.99), max: samples[samples.length - 1]! },
      dropped: streams.length - open.length,
      openFailures: openFailures
        .slice(0, 5)
        .concat(openFailures.length > 5 ? [`… ${openFailures.length - 5} more`] : []),
      undelivered: open.reduce((sum, stream) => sum + ledger.behind(stream.delivered), 0),
    };
  } finally {
    for (const stream of streams) stream.close();
    agent.destroy();
  }
}

/**
 * The ratings sent, by meal, in the order they were sent, and the latency of each delivery. Every rating is a new
 * user's, so the meal's `rating_count` in a `stats` event says how many of them the event shows: the ratings of the
 * meal from the stream's last count up to this one are new to the stream, and the event's latency is the time since
 * the first of them was sent. Ratings of one meal are committed in the order they are sent, save two sent within the
 * same few milliseconds: then the earlier send time is taken, which can only make the latency longer.
 */
export class RatingLedger {
  private readonly indexOf = new Map<number, number>();
  /** Send times (performance.now()) of each meal's ratings, in order. */
  private readonly sendTimes: number[][];
  /** The count each meal showed in the first snapshot: what no rating of the bench is in. */
  private readonly base: (number | undefined)[];
  private samples: number[] = [];
  total = 0;
  statsEvents = 0;

  constructor(readonly mealIds: readonly number[]) {
    for (const [index, id] of mealIds.entries()) this.indexOf.set(id, index);
    this.sendTimes = mealIds.map(() => []);
    this.base = mealIds.map(() => undefined);
  }

  /** A stream's state: the ratings of each meal it has shown (-1: not known before its snapshot). */
  newStream(): Int32Array {
    return new Int32Array(this.mealIds.length).fill(-1);
  }

  sent(mealId: number, at: number): void {
    this.sendTimes[this.indexOf.get(mealId)!]!.push(at);
    this.total += 1;
  }

  /** A meal's figures in a snapshot: where the stream stands. */
  snapshot(delivered: Int32Array, mealId: number, ratingCount: number): void {
    const index = this.indexOf.get(mealId);
    if (index === undefined) return;
    this.base[index] ??= ratingCount;
    delivered[index] = ratingCount - this.base[index];
  }

  /** A `stats` event of a meal that arrived at `at`: one latency sample when it shows ratings new to the stream. */
  stats(delivered: Int32Array, mealId: number, ratingCount: number, at: number): void {
    this.statsEvents += 1;
    const index = this.indexOf.get(mealId);
    if (index === undefined || delivered[index]! < 0) return;
    const shown = Math.min(ratingCount - this.base[index]!, this.sendTimes[index]!.length);
    const first = delivered[index]!;
    if (shown <= first) return;
    this.samples.push(at - this.sendTimes[index]![first]!);
    delivered[index] = shown;
  }

  /** Ratings sent that the stream has not shown. */
  behind(delivered: Int32Array): number {
    let missing = 0;
    for (let i = 0; i < delivered.length; i++) missing += this.sendTimes[i]!.length - Math.max(delivered[i]!, 0);
    return missing;
  }

  /** Every sample so far, sorted, in milliseconds. */
  latencies(): number[] {
    return this.samples.sort((a, b) => a - b);
  }
}

/** The value below which `q` of the sorted samples lie (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * Splits a stream's text into Server-Sent Events frames: answers each complete frame's `event` and `data` (comments
 * and ids are skipped) and the rest, which waits for more text.
 */
export function parseFrames(text: string): { frames: { event: string; data: string }[]; rest: string } {
  const frames: { event: string; data: string }[] = [];
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n\n', start);
    if (end < 0) break;
    let event = 'message';
    let data = '';
    for (const line of text.slice(start, end).split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data = data === '' ? line.slice(6) : `${data}\n${line.slice(6)}`;
    }
    if (data !== '') frames.push({ event, data });
    start = end + 2;
  }
  return { frames, rest: text.slice(start) };
}

/** The meal and its count from a `stats` event's data, without parsing the rest of it. */
const statsHead = /^\{"meal_id":(\d+),"rating_count":(\d+),/;

export function statsCount(data: string): { mealId: number; ratingCount: number } {
  const head = statsHead.exec(data);
  if (head !== null) return { mealId: Number(head[1]), ratingCount: Number(head[2]) };
  const parsed = JSON.parse(data) as { meal_id: number; rating_count: number };
  return { mealId: parsed.meal_id, ratingCount: parsed.rating_count };
}

interface LiveStream {
  readonly status: number;
  readonly failure: string | undefined;
  readonly delivered: Int32Array;
  readonly ended: boolean;
  close(): void;
}

/** Opens one stream; resolves once its snapshot has arrived, or with the failure. */
function openStream(url: URL, agent: Agent, ledger: RatingLedger): Promise<LiveStream> {
  return new Promise((resolve) => {
    const delivered = ledger.newStream();
    let status = 0;
    let settled = false;
    let ended = false;
    let closing = false;
    let request: ClientRequest | undefined;
    const stream: LiveStream = {
      get status() {
        return status;
      },
      failure: undefined,
      delivered,
      get ended() {
        return ended;
      },
      close() {
        closing = true;
        request?.destroy();
      },
    };
    const fail = (failure: string) => {
      ended = true;
      if (settled) return;
      settled = true;
      resolve({ status, failure, delivered, ended: true, close: () => request?.destroy() });
    };
    request = httpRequest(url, { agent, headers: { accept: 'text/event-stream' } }, (response: IncomingMessage) => {
      status = response.statusCode ?? 0;
      if (status !== 200) {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => fail(`${status} ${body.slice(0, 200)}`));
        return;
      }
      response.setEncoding('utf8');
      let pending = '';
      response.on('data', (chunk: string) => {
        const at = performance.now();
        const { frames, rest } = parseFrames(pending + chunk);
        pending = rest;
        for (const frame of frames) {
          if (frame.event === 'stats') {
            const { mealId, ratingCount } = statsCount(frame.data);
            ledger.stats(delivered, mealId, ratingCount, at);
          } else if (frame.event === 'snapshot') {
            const { meals } = JSON.parse(frame.data) as { meals: { meal_id: number; rating_count: number }[] };
            for (const meal of meals) ledger.snapshot(delivered, meal.meal_id, meal.rating_count);
            if (!settled) {
              settled = true;
              resolve(stream);
            }
          }
        }
      });
      const over = () => {
        if (!closing) fail('the server ended the stream before its snapshot');
      };
      response.on('end', over);
      response.on('close', over);
      response.on('error', over);
    });
    request.on('error', (error) => {
      if (!closing) fail(`request error: ${error.message}`);
    });
    request.end();
  });
}

/** One rating; resolves with a failure's text, or undefined for a 200. */
function postRating(baseUrl: string, agent: Agent, authorization: string, body: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const request = httpRequest(
      new URL('/api/v1/rate-meal', baseUrl),
      { method: 'POST', agent, headers: { authorization, 'content-type': 'application/json' } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve(response.statusCode === 200 ? undefined : `${response.statusCode} ${text.slice(0, 200)}`),
        );
      },
    );
    request.on('error', (error) => resolve(`request error: ${error.message}`));
    request.end(body);
  });
}
