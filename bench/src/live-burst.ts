import { Agent, request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { quantile } from './live.js';
import type { StreamsMessage, StreamsRequest } from './live-burst-streams.js';
import { cpuSeconds, type Target } from './processes.js';
import { pick } from './random.js';

/**
 * Issue 39's live burst: other requests' p99 (the public menu, rate-meal) while `streams` live streams are open and the
 * kitchen taps `taps` availability changes as fast as the server answers, against the same requests on the same
 * server with no stream open and no burst (the baseline), measured in the same run. Target: the burst's p99 <= 50 ms.
 */
export interface LiveBurstOptions {
  readonly streams: number;
  readonly taps: number;
  readonly day: string;
  /** The day's meals: the taps go round them, each tap changing its meal's status. */
  readonly menuMealIds: readonly number[];
  /** Meals the probe's ratings go to, and the users' tokens (`Bearer …`). */
  readonly rateMealIds: readonly number[];
  readonly userAuthorizations: readonly string[];
  /** A token that may set the availability of any day's serving (`meals:write`). */
  readonly adminAuthorization: string;
  readonly random: () => number;
  readonly log: (line: string) => void;
}

export interface ProbeLatencies {
  readonly requests: number;
  readonly p50: number;
  readonly p99: number;
  readonly failures: readonly string[];
}

export interface LiveBurstResult {
  readonly baseline: { readonly menu: ProbeLatencies; readonly rating: ProbeLatencies; readonly seconds: number };
  /** The same taps with no stream open. */
  readonly tapsAlone: { readonly menu: ProbeLatencies; readonly rating: ProbeLatencies; readonly seconds: number };
  readonly burst: { readonly menu: ProbeLatencies; readonly rating: ProbeLatencies; readonly seconds: number };
  readonly streamsHeld: number;
  readonly tapFailures: readonly string[];
  /** Streams whose last state of some meal is not the last tap's (after waiting for them to settle). */
  readonly streamsBehind: number;
  /** Streams the server ended before the bench closed them. */
  readonly dropped: number;
  /** `availability` events read over every stream: fewer than taps times streams when the server coalesced. */
  readonly availabilityEvents: number;
  /** Share of one core the server and the bench (probe, taps and the streams' worker) used during the burst. */
  readonly serverCpu: number | undefined;
  readonly benchCpu: number;
}

/** The probe's pace: steady open-loop requests, each sent on time whether or not the ones before were answered. */
const menuPerSecond = 200;
const ratingsPerSecond = 100;
/** The burst's pace, open loop: 2000 taps in 20 s, far beyond what kitchens tap (a few a minute per phone). */
const tapsPerSecond = 100;
const statuses = ['few_left', 'sold_out', 'available'] as const;
const settleMs = 10_000;

export async function measureLiveBurst(server: Target, options: LiveBurstOptions): Promise<LiveBurstResult> {
  const menuPath = `/api/v1/meals?canteen=default&date=${options.day}`;
  const livePath = `/api/v1/live?canteen=default&date=${options.day}`;
  const probeAgent = new Agent({ keepAlive: true, maxSockets: 64 });
  const streams = new StreamsWorker({ url: new URL(livePath, server.url).href, streams: options.streams });
  try {
    // Warm-up: the probe's routes compiled and the day read before either measurement.
    await probe(server.url, probeAgent, options, menuPath, 1, () => false);
    const baselineSeconds = 4;
    const baselineEnd = performance.now() + baselineSeconds * 1000;
    const baseline = await probe(
      server.url,
      probeAgent,
      options,
      menuPath,
      baselineSeconds,
      () => performance.now() < baselineEnd,
    );

    const last = new Map<number, string>();
    const tapFailures: string[] = [];
    /** Taps `first` to `first + taps - 1`, paced, while the probe goes on; until the open streams show the last. */
    const burstPhase = async (first: number) => {
      const serverCpuBefore = cpuSeconds(server.pid);
      const benchCpuBefore = process.cpuUsage();
      let tapping = true;
      const started = performance.now();
      const probing = probe(server.url, probeAgent, options, menuPath, 0, () => tapping);
      const taps: Promise<void>[] = [];
      for (let i = first; i < first + options.taps; i++) {
        const wait = started + ((i - first) * 1000) / tapsPerSecond - performance.now();
        if (wait > 0) await sleep(wait);
        const mealId = options.menuMealIds[i % options.menuMealIds.length]!;
        // Round r sets every meal to statuses[r % 3]: each tap changes its meal's status, so each is an event.
        const status = statuses[Math.floor(i / options.menuMealIds.length) % statuses.length]!;
        last.set(mealId, status);
        const path = `/api/v1/kitchen/meals/${mealId}/availability`;
        taps.push(
          send(server.url, probeAgent, 'PUT', path, options.adminAuthorization, { status }).then((failure) => {
            if (failure !== undefined) tapFailures.push(failure);
          }),
        );
      }
      await Promise.all(taps);
      // The burst lasts until every open stream shows each meal's last status.
      const settled = performance.now() + settleMs;
      let state: Extract<StreamsMessage, { kind: 'state' }>;
      const behind = () =>
        state.states.filter((shown) => {
          const states = new Map(shown);
          return [...last].some(([meal, status]) => states.get(meal) !== status);
        }).length - state.ended;
      for (;;) {
        state = (await streams.ask('state')) as typeof state;
        if (behind() <= 0 || performance.now() > settled) break;
        await sleep(50);
      }
      tapping = false;
      const figures = await probing;
      const seconds = (performance.now() - started) / 1000;
      const serverCpuAfter = cpuSeconds(server.pid);
      const benchCpu = process.cpuUsage(benchCpuBefore);
      return {
        figures: { ...figures, seconds },
        state,
        streamsBehind: Math.max(0, behind()),
        serverCpu:
          serverCpuBefore === undefined || serverCpuAfter === undefined
            ? undefined
            : (serverCpuAfter - serverCpuBefore) / seconds,
        benchCpu: (benchCpu.user + benchCpu.system) / 1e6 / seconds,
      };
    };

    // The taps without any stream: what they cost the other requests by themselves (each drops the kept menu).
    const alone = await burstPhase(0);
    const opened = await streams.ask('open');
    if (opened.kind !== 'opened' || opened.failures.length > 0)
      throw new Error(`live burst: streams failed: ${JSON.stringify(opened)}`);
    options.log(`bench: live burst: ${options.streams} streams open; ${options.taps} availability taps`);
    await sleep(500);
    const withStreams = await burstPhase(options.taps);
    return {
      baseline,
      tapsAlone: alone.figures,
      burst: withStreams.figures,
      streamsHeld: withStreams.state.states.length,
      tapFailures,
      streamsBehind: withStreams.streamsBehind,
      dropped: withStreams.state.ended,
      availabilityEvents: withStreams.state.events,
      serverCpu: withStreams.serverCpu,
      benchCpu: withStreams.benchCpu,
    };
  } finally {
    await streams.close();
    probeAgent.destroy();
  }
}

/** The streams' worker thread, asked one thing at a time. */
class StreamsWorker {
  private readonly worker: Worker;

  constructor(request: StreamsRequest) {
    this.worker = new Worker(new URL('./live-burst-streams.js', import.meta.url), { workerData: request });
  }

  ask(message: 'open' | 'state'): Promise<StreamsMessage> {
    return new Promise<StreamsMessage>((resolve, reject) => {
      const answered = (answer: StreamsMessage) => {
        this.worker.off('error', failed);
        resolve(answer);
      };
      const failed = (error: Error) => {
        this.worker.off('message', answered);
        reject(error);
      };
      this.worker.once('message', answered);
      this.worker.once('error', failed);
      this.worker.postMessage(message);
    });
  }

  async close(): Promise<void> {
    this.worker.postMessage('close');
    await this.worker.terminate();
  }
}

/** Public menu reads and ratings at a steady pace while `going()`; the latency of each, sent to answered. */
async function probe(
  baseUrl: string,
  agent: Agent,
  options: LiveBurstOptions,
  menuPath: string,
  minSeconds: number,
  going: () => boolean,
): Promise<{ menu: ProbeLatencies; rating: ProbeLatencies; seconds: number }> {
  const menu: number[] = [];
  const rating: number[] = [];
  const menuFailures: string[] = [];
  const ratingFailures: string[] = [];
  const answers: Promise<void>[] = [];
  const started = performance.now();
  const tick = 1000 / (menuPerSecond + ratingsPerSecond);
  for (let i = 0; going() || performance.now() - started < minSeconds * 1000; i++) {
    const wait = started + i * tick - performance.now();
    if (wait > 0) await sleep(wait);
    const isRating = i % 3 === 2;
    const sentAt = performance.now();
    const answered = isRating
      ? send(baseUrl, agent, 'POST', '/api/v1/rate-meal', pick(options.random, options.userAuthorizations), {
          meal_id: pick(options.random, options.rateMealIds),
          rating: 1 + Math.floor(options.random() * 5),
        })
      : send(baseUrl, agent, 'GET', menuPath, undefined, undefined);
    answers.push(
      answered.then((failure) => {
        (isRating ? rating : menu).push(performance.now() - sentAt);
        if (failure !== undefined) (isRating ? ratingFailures : menuFailures).push(failure);
      }),
    );
  }
  await Promise.all(answers);
  const seconds = (performance.now() - started) / 1000;
  return { menu: latencies(menu, menuFailures), rating: latencies(rating, ratingFailures), seconds };
}

function latencies(samples: number[], failures: string[]): ProbeLatencies {
  samples.sort((a, b) => a - b);
  return { requests: samples.length, p50: quantile(samples, 0.5), p99: quantile(samples, 0.99), failures };
}

/** One request; resolves with a failure's text, or undefined for a 200. */
function send(
  baseUrl: string,
  agent: Agent,
  method: string,
  path: string,
  authorization: string | undefined,
  body: unknown,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {};
    if (authorization !== undefined) headers.authorization = authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const request = httpRequest(new URL(path, baseUrl), { method, agent, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve(
          response.statusCode === 200 ? undefined : `${method} ${path}: ${response.statusCode} ${text.slice(0, 200)}`,
        ),
      );
    });
    request.on('error', (error) => resolve(`${method} ${path}: ${error.message}`));
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
