import type { CanteenId } from '../canteen/canteen.js';

/**
 * A menu feed a canteen publishes: fetched at the times its cron `schedule` names (read on the canteen's clocks),
 * e.g. `full` at `0 6 * * *` and `today` at `0 8-15 * * 1-5`.
 */
export interface CanteenFeed {
  /** The feed's name within its canteen, a slug: `full`, `today`. */
  readonly name: string;
  /** http(s) only. */
  readonly url: string;
  /** A cron expression (5 fields, or 6 with seconds first). */
  readonly schedule: string;
}

export const feedNamePattern = /^[a-z0-9][a-z0-9-]{0,31}$/;
export const maxFeedsPerCanteen = 10;
export const maxFeedUrlLength = 2000;

/** What is wrong with a schedule in a time zone (undefined: nothing); an adapter with a cron library answers it. */
export type ScheduleCheck = (schedule: string, timeZone: string) => string | undefined;

/**
 * What the outbound address rule finds wrong with a URL on saving (undefined: nothing), as `must reach a public
 * address, ...`: the part an adapter can check without a lookup (loopback and private IP literals, `localhost`).
 */
export type FeedUrlCheck = (url: string) => string | undefined;

export const anyFeedUrl: FeedUrlCheck = () => undefined;

/** What is wrong with the first feed that is not valid, or undefined. */
export function feedsProblem(
  feeds: readonly CanteenFeed[],
  timeZone: string,
  checkSchedule: ScheduleCheck,
  checkUrl: FeedUrlCheck = anyFeedUrl,
): string | undefined {
  if (feeds.length > maxFeedsPerCanteen) return `a canteen has at most ${maxFeedsPerCanteen} feeds`;
  const names = new Set<string>();
  for (const [index, feed] of feeds.entries()) {
    const where = `feeds[${index}]`;
    if (!feedNamePattern.test(feed.name)) return `${where}: the name must match ^[a-z0-9][a-z0-9-]{0,31}$`;
    if (names.has(feed.name)) return `${where}: the name "${feed.name}" appears more than once`;
    names.add(feed.name);
    if (!isHttpUrl(feed.url))
      return `${where}: the url must be an http or https URL of at most ${maxFeedUrlLength} characters`;
    const unreachable = checkUrl(feed.url);
    if (unreachable !== undefined) return `${where}: the url of the feed "${feed.name}" ${unreachable}`;
    const problem = checkSchedule(feed.schedule, timeZone);
    if (problem !== undefined) return `${where}: the schedule ${problem}`;
  }
  return undefined;
}

/**
 * http(s), a host (a name, an IPv4 address or an IPv6 address in brackets), an optional port and path; no credentials
 * (they would end up in logs) and no white space. A bracketed address of the right characters that is still no IPv6
 * address fails at the fetch, which parses the URL (the domain has no URL parser).
 */
const httpUrl = /^https?:\/\/(?:[^\s/?#@:[\]]+|\[[0-9a-f.]*:[0-9a-f.]*:[0-9a-f:.]*\])(?::\d{1,5})?(?:[/?#][^\s]*)?$/i;

/** Also the rule of webhook URLs: the same shape as feed URLs, checked again on the address connected to. */
export function isHttpUrl(value: string, maxLength: number = maxFeedUrlLength): boolean {
  return value.length <= maxLength && httpUrl.test(value);
}

/** The host of a URL of that shape, lower-cased, with the brackets of an IPv6 address. */
export function hostOfHttpUrl(url: string): string {
  return (/^https?:\/\/([^/?#:[\]]+|\[[^\]]*\])/i.exec(url)?.[1] ?? url).toLowerCase();
}

/** The outcome counts of one fetch that imported a menu. */
export interface FeedImportCounts {
  readonly added: number;
  readonly changed: number;
  readonly unchanged: number;
  readonly withdrawn: number;
}

/** What the service remembers of a feed's fetches. */
export interface FeedState {
  readonly canteenId: CanteenId;
  readonly feedName: string;
  readonly lastAttemptAt: Date | null;
  readonly lastSuccessAt: Date | null;
  /** The HTTP status of the last attempt's answer; null when none came (a network error, a refused address). */
  readonly httpStatus: number | null;
  readonly durationMs: number | null;
  /** `not_modified` when the last attempt's answer was a 304; `imported` with its counts; `failed`. */
  readonly outcome: 'imported' | 'not_modified' | 'failed' | null;
  /** The counts of the last import (kept across 304s and failures). */
  readonly counts: FeedImportCounts | null;
  readonly lastError: string | null;
  /** Failed attempts since the last success (0 after one): how long the next retry waits (see feed-retry.ts). */
  readonly failures: number;
  /** The validators of the last successful answer, sent back as If-None-Match / If-Modified-Since. */
  readonly etag: string | null;
  readonly lastModified: string | null;
}

export function neverFetched(canteenId: CanteenId, feedName: string): FeedState {
  return {
    canteenId,
    feedName,
    lastAttemptAt: null,
    lastSuccessAt: null,
    httpStatus: null,
    durationMs: null,
    outcome: null,
    counts: null,
    lastError: null,
    failures: 0,
    etag: null,
    lastModified: null,
  };
}

/** At most this many characters of an error go into a feed's last error, the API and the log. */
export const maxFeedErrorLength = 2000;

/** An error text cut to maxFeedErrorLength, saying that it was cut. */
export function boundedFeedError(message: string): string {
  if (message.length <= maxFeedErrorLength) return message;
  const marker = ` … (${message.length - maxFeedErrorLength} more characters)`;
  return message.slice(0, maxFeedErrorLength - marker.length) + marker;
}
