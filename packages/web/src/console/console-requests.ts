// The smaller forms of the console to their requests: a webhook, a merge of dishes, a ratings report's days. Pure, so
// that what is refused before the API is asked has a unit test.
import {
  webhookEventTypes,
  type MergeDishesRequest,
  type RatingsReportRequest,
  type SaveWebhookRequest,
  type Webhook,
} from '@canteen-meals/client';

export type WebhookEventType = Webhook['events'][number];

/**
 * Every event a webhook can subscribe to: the API's own list, so the form cannot fall behind it again (it lacked
 * meal.availability_changed); a new one without a text in texts.ts is a compile error there.
 */
export const webhookEvents: readonly WebhookEventType[] = webhookEventTypes;

export type RequestProblem =
  | 'webhookId'
  | 'webhookUrl'
  | 'webhookEvents'
  | 'noMergeTarget'
  | 'nothingToMerge'
  | 'reportDays'
  | 'reportOrder'
  | 'reportTooLong'
  | 'noCanteen';

export type Refusable<Value> =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly problem: RequestProblem };

const webhookIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

export function webhookRequestOf(fields: {
  readonly id: string;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
}): Refusable<{ webhookId: string; request: SaveWebhookRequest }> {
  const webhookId = fields.id.trim();
  const url = fields.url.trim();
  if (!webhookIdPattern.test(webhookId)) return { ok: false, problem: 'webhookId' };
  if (!/^https?:\/\/\S+$/i.test(url)) return { ok: false, problem: 'webhookUrl' };
  if (fields.events.length === 0) return { ok: false, problem: 'webhookEvents' };
  // In the catalogue's order, each once (the API refuses duplicates).
  const events = webhookEvents.filter((event) => fields.events.includes(event));
  return { ok: true, value: { webhookId, request: { url, events } } };
}

/** Merge the picked dishes into the target: the target itself is left out of `from`. */
export function mergeRequestOf(
  target: number | undefined,
  picked: readonly number[],
): Refusable<{ dishId: number; request: MergeDishesRequest }> {
  if (target === undefined) return { ok: false, problem: 'noMergeTarget' };
  const from = [...new Set(picked)].filter((dish) => dish !== target);
  if (from.length === 0) return { ok: false, problem: 'nothingToMerge' };
  return { ok: true, value: { dishId: target, request: { from } } };
}

const maxReportDays = 366;
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
const dayNumber = (day: string) =>
  Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / 86_400_000;

/** The report's days: both given, `from` not after `to`, at most 366 days (the API's limit). */
export function reportRequestOf(canteen: string, from: string, to: string): Refusable<RatingsReportRequest> {
  if (canteen === '') return { ok: false, problem: 'noCanteen' };
  if (!dayPattern.test(from) || !dayPattern.test(to)) return { ok: false, problem: 'reportDays' };
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days < 1) return { ok: false, problem: 'reportOrder' };
  if (days > maxReportDays) return { ok: false, problem: 'reportTooLong' };
  return { ok: true, value: { canteen, from, to } };
}

/** The CSV's file name: which canteen and days it holds. */
export const reportFileName = ({ canteen, from, to }: RatingsReportRequest) => `ratings-${canteen}-${from}-${to}.csv`;

/** The first day of the month of `day` (the report's default start). */
export const firstOfMonth = (day: string) => `${day.slice(0, 8)}01`;
