import autocannon from 'autocannon';
import { cpuSeconds, type Target } from './processes.js';
import type { Scenario } from './scenarios.js';

/** What one timed load against one target measured. */
export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  /** Answers that were not 2xx, plus connection errors and timeouts: any of them fails the run. */
  readonly failures: number;
  readonly failureDetail: string;
  /** Share of one core the target used during the load (1 = a full core); undefined without /proc. */
  readonly targetCpu: number | undefined;
}

export async function runLoad(
  target: Target,
  scenario: Scenario,
  options: { seconds: number; connections: number },
): Promise<LoadResult> {
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
          return { ...request, method: next.method, path: next.path, headers: { ...next.headers }, body: next.body ?? '' };
        },
      },
    ],
  });
  const cpuAfter = cpuSeconds(target.pid);
  const failures = result.non2xx + result.errors + result.timeouts;
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failures,
    failureDetail:
      failures === 0
        ? ''
        : `non-2xx ${result.non2xx} (by status: ${JSON.stringify(result.statusCodeStats)}), ` +
          `errors ${result.errors}, timeouts ${result.timeouts}`,
    targetCpu:
      cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / result.duration,
  };
}
