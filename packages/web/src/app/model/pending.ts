// What a person tapped while offline: kept in the browser and sent when back online. One entry per meal and kind
// (the last tap wins: rating 4 then 5 offline sends 5). Pure: the data layer stores and sends.

export type PendingAction =
  | { readonly kind: 'rate'; readonly meal_id: number; readonly rating: number | null }
  | { readonly kind: 'mark'; readonly meal_id: number; readonly marked: boolean };

/** The queue with the action added, replacing an earlier one of the same meal and kind. */
export function enqueue(queue: readonly PendingAction[], action: PendingAction): readonly PendingAction[] {
  return [...queue.filter((entry) => entry.meal_id !== action.meal_id || entry.kind !== action.kind), action];
}

/** The queue read back from storage: entries that are not actions are dropped. */
export function queueFrom(value: unknown): readonly PendingAction[] {
  if (!Array.isArray(value)) return [];
  return value.filter((entry): entry is PendingAction => {
    if (typeof entry !== 'object' || entry === null) return false;
    const { kind, meal_id: mealId } = entry as Record<string, unknown>;
    if (typeof mealId !== 'number' || !Number.isInteger(mealId) || mealId < 1) return false;
    if (kind === 'mark') return typeof (entry as { marked?: unknown }).marked === 'boolean';
    if (kind !== 'rate') return false;
    const rating = (entry as { rating?: unknown }).rating;
    return rating === null || (typeof rating === 'number' && Number.isInteger(rating) && rating >= 1 && rating <= 5);
  });
}

/** How long to wait before the live stream's `attempt`-th reconnection: 1 s doubling to 30 s, with some jitter. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.max(0, attempt));
  return Math.round(base * (0.75 + random() * 0.5));
}
