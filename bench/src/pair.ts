import { runLoad, runLoadAcross, type LoadResult } from './load.js';
import type { Target } from './processes.js';
import type { Scenario } from './scenarios.js';
import type { BenchSettings } from './bench-settings.js';

/** One side of a comparison: a scenario against a target. */
export interface Side {
  readonly label: string;
  /** Several targets: instances of one service, the load split between them. */
  readonly target: Target | readonly Target[];
  readonly scenario: Scenario;
}

export interface SideSummary {
  readonly label: string;
  readonly rounds: readonly LoadResult[];
  /** Medians over the rounds. */
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly targetCpu: number | undefined;
  /** Requests built by kind over the measured rounds, summed (see LoadResult.sentByKind). */
  readonly sentByKind: Readonly<Record<string, number>>;
}

export interface PairResult {
  readonly name: string;
  readonly measured: SideSummary;
  readonly baseline: SideSummary;
  /** measured / baseline throughput, round by round. */
  readonly ratios: readonly number[];
  readonly ratio: number;
  readonly failures: readonly string[];
}

/**
 * Loads the two sides in turn, round after round, alternating which goes first (ABBA), so that a slow phase of a
 * shared machine hits both sides alike. The ratio of a round compares two loads a few seconds apart.
 */
export async function comparePair(
  name: string,
  measured: Side,
  baseline: Side,
  settings: BenchSettings,
  log: (line: string) => void,
): Promise<PairResult> {
  const load = (side: Side, seconds: number) => {
    const options = { seconds, connections: settings.connections };
    return isTarget(side.target)
      ? runLoad(side.target, side.scenario, options)
      : runLoadAcross(side.target, side.scenario, options);
  };
  const failures: string[] = [];
  const check = (side: Side, result: LoadResult) => {
    if (result.failures > 0) failures.push(`${name}, ${side.label}: ${result.failureDetail}`);
    return result;
  };

  check(measured, await load(measured, settings.warmupSeconds));
  check(baseline, await load(baseline, settings.warmupSeconds));
  const measuredRounds: LoadResult[] = [];
  const baselineRounds: LoadResult[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    const order = round % 2 === 0 ? ([measured, baseline] as const) : ([baseline, measured] as const);
    for (const side of order) {
      const result = check(side, await load(side, settings.seconds));
      (side === measured ? measuredRounds : baselineRounds).push(result);
    }
    const ratio = measuredRounds[round]!.requestsPerSecond / baselineRounds[round]!.requestsPerSecond;
    log(
      `  ${name} round ${round + 1}/${settings.rounds}: ${measured.label} ${fixed(measuredRounds[round]!.requestsPerSecond)} req/s, ` +
        `${baseline.label} ${fixed(baselineRounds[round]!.requestsPerSecond)} req/s, ratio ${ratio.toFixed(3)}`,
    );
  }
  const ratios = measuredRounds.map((m, i) => m.requestsPerSecond / baselineRounds[i]!.requestsPerSecond);
  return {
    name,
    measured: summarize(measured.label, measuredRounds),
    baseline: summarize(baseline.label, baselineRounds),
    ratios,
    ratio: median(ratios),
    failures,
  };
}

function isTarget(target: Target | readonly Target[]): target is Target {
  return !Array.isArray(target);
}

function summarize(label: string, rounds: readonly LoadResult[]): SideSummary {
  const cpu = rounds.map((r) => r.targetCpu);
  return {
    label,
    rounds,
    requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    targetCpu: cpu.every((c) => c !== undefined) ? median(cpu as number[]) : undefined,
    sentByKind: summed(rounds.map((r) => r.sentByKind)),
  };
}

function summed(counts: readonly Readonly<Record<string, number>>[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const count of counts) for (const [kind, n] of Object.entries(count)) sums[kind] = (sums[kind] ?? 0) + n;
  return sums;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function fixed(n: number): string {
  return n.toFixed(0);
}
