/** How many runs may be under way at once: in all, and of one key (a feed's host). */
export interface RunBounds {
  readonly concurrency: number;
  readonly perKey: number;
}

/**
 * A queue of runs that keeps to its bounds across every batch given to it: at most `concurrency` under way at once, at
 * most `perKey` of one key, so one slow key holds its own slots only. Runs start in the order they were scheduled, as
 * far as the bounds allow; a run scheduled later is not held up by a key whose slots are taken.
 */
export class BoundedRunner {
  private readonly waiting: { readonly key: string; readonly start: () => void }[] = [];
  private readonly underWay = new Map<string, number>();
  private running = 0;

  constructor(private readonly bounds: RunBounds) {}

  /** Runs `run` once a slot for `key` is free, and answers its outcome. */
  schedule<Outcome>(key: string, run: () => Promise<Outcome>): Promise<Outcome> {
    return new Promise<Outcome>((resolve, reject) => {
      const start = () => {
        Promise.resolve()
          .then(run)
          .then(resolve, reject)
          .finally(() => this.release(key));
      };
      this.waiting.push({ key, start });
      this.startWhatFits();
    });
  }

  private startWhatFits(): void {
    const concurrency = Math.max(1, this.bounds.concurrency);
    const perKey = Math.max(1, this.bounds.perKey);
    for (let index = 0; index < this.waiting.length && this.running < concurrency; ) {
      const { key, start } = this.waiting[index]!;
      if ((this.underWay.get(key) ?? 0) >= perKey) {
        index += 1;
        continue;
      }
      this.waiting.splice(index, 1);
      this.running += 1;
      this.underWay.set(key, (this.underWay.get(key) ?? 0) + 1);
      start();
    }
  }

  private release(key: string): void {
    this.running -= 1;
    const left = this.underWay.get(key)! - 1;
    if (left === 0) this.underWay.delete(key);
    else this.underWay.set(key, left);
    this.startWhatFits();
  }
}

/**
 * Runs `run` for every item within the bounds (a runner of their own). Waits for every run; a run that threw makes the
 * whole throw its error after the others ended. Answers the results that are not undefined, in the order they came.
 */
export function runBounded<Item, Outcome>(
  items: readonly Item[],
  keyOf: (item: Item) => string,
  run: (item: Item) => Promise<Outcome | undefined>,
  bounds: RunBounds,
): Promise<Outcome[]> {
  const runner = new BoundedRunner(bounds);
  return settleAll(items.map((item) => runner.schedule(keyOf(item), () => run(item))));
}

/** Waits for every run; throws the first failure once all ended, else answers the defined outcomes as they came. */
export async function settleAll<Outcome>(runs: readonly Promise<Outcome | undefined>[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const failures: unknown[] = [];
  await Promise.all(
    runs.map((run) =>
      run.then(
        (outcome) => void (outcome !== undefined && outcomes.push(outcome)),
        (error: unknown) => void failures.push(error),
      ),
    ),
  );
  if (failures.length > 0) throw failures[0];
  return outcomes;
}
