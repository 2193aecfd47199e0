import { cpus, totalmem, type as osType, release } from 'node:os';
import type { BenchSettings } from './bench-settings.js';
import type { PairResult, SideSummary } from './pair.js';

export interface TargetCheck {
  readonly what: string;
  readonly target: string;
  readonly measured: string;
  /**
   * undefined: could not be measured here (reported, not failed); 'reported': a figure without a target, shown for
   * what it is (issue 16's mixed load).
   */
  readonly pass: boolean | undefined | 'reported';
}

export interface BenchReport {
  readonly date: Date;
  readonly settings: BenchSettings;
  readonly pairs: readonly PairResult[];
  readonly facts: readonly { readonly what: string; readonly value: string }[];
  readonly targets: readonly TargetCheck[];
  readonly notices: readonly string[];
}

export function machineDescription(): string {
  const processors = cpus();
  const model = processors[0]?.model.trim() ?? 'unknown CPU';
  return (
    `${model}, ${processors.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory; ` +
    `${osType()} ${release()}; Node ${process.version}`
  );
}

/** The results as Markdown: the same tables are printed to the terminal and written to docs/benchmarks.md. */
export function resultsMarkdown(report: BenchReport): string {
  const { settings } = report;
  const lines = [
    `Run of ${report.date.toISOString().replace(/\.\d+Z$/, 'Z')} on ${machineDescription()}.`,
    '',
    `Each scenario: ${settings.warmupSeconds} s of warm-up per side, then ${settings.rounds} rounds of ` +
      `${settings.seconds} s per side, alternating which side goes first; ${settings.connections} connections, ` +
      `${settings.users} users with their own tokens. Figures are medians over the rounds; the ratio is the median of ` +
      'the per-round ratios. CPU is the share of one core the serving process used. The reference is bare Fastify ' +
      "answering each of the scenario's routes with the status, headers and body of the server's first answer.",
    '',
    '| scenario | side | req/s | p50 ms | p99 ms | CPU | ratio | ratio per round |',
    '|---|---|--:|--:|--:|--:|--:|---|',
  ];
  for (const pair of report.pairs) {
    lines.push(
      sideRow(pair.name, pair.measured, `**${pair.ratio.toFixed(2)}**`, pair.ratios.map((r) => r.toFixed(2)).join(' ')),
    );
    lines.push(sideRow('', pair.baseline, '', ''));
  }
  lines.push('', '| measurement | value |', '|---|---|');
  for (const fact of report.facts) lines.push(`| ${fact.what} | ${fact.value} |`);
  lines.push('', '| target | wanted | measured | result |', '|---|---|---|---|');
  for (const t of report.targets) {
    lines.push(`| ${t.what} | ${t.target} | ${t.measured} | ${verdict(t.pass)} |`);
  }
  if (report.notices.length > 0) lines.push('', ...report.notices.map((n) => `- ${n}`));
  return lines.join('\n');
}

function verdict(pass: TargetCheck['pass']): string {
  if (pass === undefined) return 'not measured';
  if (pass === 'reported') return 'reported';
  return pass ? 'pass' : '**FAIL**';
}

function sideRow(scenario: string, side: SideSummary, ratio: string, perRound: string): string {
  const cpu = side.targetCpu === undefined ? 'n/a' : `${Math.round(side.targetCpu * 100)}%`;
  return `| ${scenario} | ${side.label} | ${side.requestsPerSecond.toFixed(0)} | ${side.p50Ms} | ${side.p99Ms} | ${cpu} | ${ratio} | ${perRound} |`;
}

const startMarker = '<!-- bench:results:start (written by pnpm bench) -->';
const endMarker = '<!-- bench:results:end -->';

/**
 * Replaces the generated block of docs/benchmarks.md and keeps the hand-written text around it (the profile notes).
 */
export function withResults(document: string | undefined, results: string): string {
  const block = `${startMarker}\n${results}\n${endMarker}`;
  if (document === undefined || !document.includes(startMarker) || !document.includes(endMarker)) {
    return `# Benchmarks\n\nWritten by \`pnpm bench\` (see bench/README.md).\n\n${block}\n`;
  }
  return (
    document.slice(0, document.indexOf(startMarker)) +
    block +
    document.slice(document.indexOf(endMarker) + endMarker.length)
  );
}
