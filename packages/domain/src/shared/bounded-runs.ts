/** How many runs may be under way at once: in all, and of one key (a feed's host). */
export interface RunBounds {
  readonly concurrency: number;
  readonly perKey: number;
}

/**
 * Runs `run` for every item, in their order as far as the bounds allow: at most `concurrency` at once, at most `perKey`
 * of one key at once, so one slow key holds its own slots only. Waits for every run; a run that threw makes the
 * whole throw its error after the others ended. Answers the results that are not undefined, in the order they came.
 */
export function runBounded<Item, Outcome>(
  items: readonly Item[],
  keyOf: (item: Item) => string,
  run: (item: Item) => Promise<Outcome | undefined>,
  { concurrency, perKey }: RunBounds,
): Promise<Outcome[]> {
  const waiting = [...items];
  const underWay = new Map<string, number>();
  const outcomes: Outcome[] = [];
  const failures: unknown[] = [];
  let running = 0;
  return new Promise((resolve, reject) => {
    const next = () => {
      for (let index = 0; index < waiting.length && running < Math.max(1, concurrency); ) {
        const item = waiting[index]!;
        const key = keyOf(item);
        if ((underWay.get(key) ?? 0) >= Math.max(1, perKey)) {
          index += 1;
          continue;
        }
        waiting.splice(index, 1);
        running += 1;
        underWay.set(key, (underWay.get(key) ?? 0) + 1);
        run(item)
          .then(
            (outcome) => void (outcome !== undefined && outcomes.push(outcome)),
            (error: unknown) => void failures.push(error),
          )
          .finally(() => {
            running -= 1;
            underWay.set(key, underWay.get(key)! - 1);
            next();
          });
      }
      if (running > 0) return;
      if (failures.length > 0) reject(failures[0]);
      else resolve(outcomes);
    };
    next();
  });
}
