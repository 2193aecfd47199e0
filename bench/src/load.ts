import autocannon from 'autocannon';
import { cpuSeconds, type Target } from './processes.js';
import type { Scenario } from './scenarios.js';

/** What one timed load against one target measured. */
export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  /**
   * Answers of another status than the scenario expects (200, or 304 for a revalidation), plus connection errors and
   * timeouts: any of them fails the run.
   */
  readonly failures: number;
  readonly failureDetail: string;
  /** Share of one core the target used during the load (1 = a full core); undefined without /proc. */
  readonly targetCpu: number | undefined;
  /**
   * Requests the load generator built, by kind, for the scenarios whose requests carry one (the mixed load). Counted
   * as they are built, which costs nothing measurable; autocannon tells answers apart by status only. Each connection
   * builds its next request when an answer comes in, so the counts exceed the answers by at most one per connection.
   */
  readonly sentByKind: Readonly<Record<string, number>>;
}

export async function runLoad(
  target: Target,
  scenario: Scenario,
  options: { seconds: number; connections: number },
): Promise<LoadResult> {
  const sentByKind: Record<string, number> = {};
  const cpuBefore = cpuSeconds(target.pid);
  const result = await autocannon({
    url: target.url,
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        // A fresh request every time: a random user, meal and action (autocannon rebuilds it from this object).
        setupRequest: (request) => {
          const next = scenario.nextRequest();
          if (next.kind !== undefined) sentByKind[next.kind] = (sentByKind[next.kind] ?? 0) + 1;
          return {
            ...request,
            method: next.method,
            path: next.path,
            headers: { ...next.headers },
            body: next.body ?? '',
          };
        },
      },
    ],
  });
  const cpuAfter = cpuSeconds(target.pid);
  // autocannon counts 304 among its non-2xx; the scenario says which status is right. Its latencies include every
  // status (excludeErrorStats is off), so a 304 load has its p50 and p99 like any other.
  const unexpected =
    result.statusCodeStats === undefined
      ? result.non2xx
      : Object.entries(result.statusCodeStats)
          .filter(([status]) => Number(status) !== scenario.expectedStatus)
          .reduce((sum, [, stats]) => sum + (stats.count ?? 0), 0);
  const failures = unexpected + result.errors + result.timeouts;
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failures,
    failureDetail:
      failures === 0
        ? ''
        : `${unexpected} answers other than ${scenario.expectedStatus} (by status: ${JSON.stringify(result.statusCodeStats)}), ` +
          `errors ${result.errors}, timeouts ${result.timeouts}`,
    targetCpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / result.duration,
    sentByKind,
  };
}

/**
 * The same load split over several targets (instances of one service): the connections shared out, the loads run
 * at once, requests and CPU summed. p50 and p99 are the highest of the targets' (a bound, not a merged percentile).
 */
export async function runLoadAcross(
  targets: readonly Target[],
  scenario: Scenario,
  options: { seconds: number; connections: number },
): Promise<LoadResult> {
  const share = (index: number) =>
    Math.floor(options.connections / targets.length) + (index < options.connections % targets.length ? 1 : 0);
  const results = await Promise.all(
    targets.map((target, index) => runLoad(target, scenario, { ...options, connections: Math.max(1, share(index)) })),
  );
  const sum = (pick: (result: LoadResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  const sentByKind: Record<string, number> = {};
  for (const result of results)
    for (const [kind, n] of Object.entries(result.sentByKind)) sentByKind[kind] = (sentByKind[kind] ?? 0) + n;
  return {
    requestsPerSecond: sum((result) => result.requestsPerSecond),
    p50Ms: Math.max(...results.map((result) => result.p50Ms)),
    p99Ms: Math.max(...results.map((result) => result.p99Ms)),
    requests: sum((result) => result.requests),
    failures: sum((result) => result.failures),
    failureDetail: results
      .map((result) => result.failureDetail)
      .filter((detail) => detail !== '')
      .join('; '),
    targetCpu: results.every((result) => result.targetCpu !== undefined)
      ? sum((result) => result.targetCpu!)
      : undefined,
    sentByKind,
  };
}
