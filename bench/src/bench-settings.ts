/** How long and how hard the bench loads each target; every value can be changed through the environment. */
export interface BenchSettings {
  /** Measured rounds per scenario; each round loads both sides of the pair once. */
  readonly rounds: number;
  /** Length of one measured load, in seconds. */
  readonly seconds: number;
  /** Unmeasured load on each side before the first round, in seconds. */
  readonly warmupSeconds: number;
  /** Concurrent keep-alive connections of the load generator. */
  readonly connections: number;
  /** Distinct users, each with its own signed token. */
  readonly users: number;
  /** The live measurement: streams held open, ratings sent per second while they are, for how long. */
  readonly liveStreams: number;
  readonly liveRatingsPerSecond: number;
  readonly liveSeconds: number;
}

export function benchSettings(env: Readonly<Record<string, string | undefined>>): BenchSettings {
  return {
    rounds: positiveInteger(env, 'BENCH_ROUNDS', 5),
    seconds: positiveInteger(env, 'BENCH_SECONDS', 4),
    warmupSeconds: positiveInteger(env, 'BENCH_WARMUP_SECONDS', 2),
    connections: positiveInteger(env, 'BENCH_CONNECTIONS', 32),
    users: positiveInteger(env, 'BENCH_USERS', 1000),
    liveStreams: positiveInteger(env, 'BENCH_LIVE_STREAMS', 5000),
    liveRatingsPerSecond: positiveInteger(env, 'BENCH_LIVE_RATINGS_PER_S', 50),
    liveSeconds: positiveInteger(env, 'BENCH_LIVE_SECONDS', 10),
  };
}

function positiveInteger(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name} must be a positive integer, not "${raw}"`);
  return Number(raw);
}
