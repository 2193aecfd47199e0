/**
 * Checks that rating answers fit one serial order of the changes to a meal. Each answer shows the meal's count and
 * mean right after one change; the client knows its own previous rating, so every answer is an edge from the state
 * before (count, sum) to the state after. The answers fit a serial order exactly when those edges form one path from
 * the empty state to the final one: an Eulerian trail, which exists when every state's in- and out-degrees balance
 * (but for the two ends) and every edge is reachable from the start.
 */
export interface ObservedChange {
  readonly previous: number | null;
  readonly next: number | null;
  /** What the answer said right after this change. */
  readonly count: number;
  readonly average: number | null;
}

type State = string;
const state = (count: number, sum: number): State => `${count}/${sum}`;

export function fitsOneSerialOrder(
  changes: readonly ObservedChange[],
  final: { count: number; sum: number },
): string | null {
  const start = state(0, 0);
  const end = state(final.count, final.sum);
  const balance = new Map<State, number>();
  const edges = new Map<State, State[]>();
  for (const change of changes) {
    if (change.previous === change.next) continue;
    const afterSum = Math.round((change.average ?? 0) * change.count);
    const before = state(
      change.count - (change.next === null ? 0 : 1) + (change.previous === null ? 0 : 1),
      afterSum - (change.next ?? 0) + (change.previous ?? 0),
    );
    const after = state(change.count, afterSum);
    balance.set(before, (balance.get(before) ?? 0) + 1);
    balance.set(after, (balance.get(after) ?? 0) - 1);
    edges.set(before, [...(edges.get(before) ?? []), after]);
  }
  if (edges.size === 0) return start === end ? null : `no change observed, yet the meal ends at ${end}`;
  for (const [node, surplus] of balance) {
    const expected = (node === start ? 1 : 0) - (node === end ? 1 : 0);
    if (surplus !== expected) return `state ${node} is left ${surplus} times more than entered (expected ${expected})`;
  }
  const reached = new Set<State>([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const next of edges.get(queue.pop()!) ?? []) {
      if (!reached.has(next)) reached.add(next) && queue.push(next);
    }
  }
  const stranded = [...edges.keys()].find((node) => !reached.has(node));
  return stranded === undefined ? null : `state ${stranded} cannot be reached from the empty meal`;
}
