import type { MenuChange } from '@canteen-meals/domain';
import type { Clock } from '@canteen-meals/domain/ports';
import { strongTagOf } from './entity-tag.js';
import { SingleFlightCache } from './single-flight-cache.js';

/** Where a list answer stands among its pages (will_paginate's counts: at least one page). */
export interface V2Paging {
  readonly totalCount: number;
  readonly totalPages: number;
  readonly page: number;
  readonly perPage: number;
}

/** What a v2 route answers: a JSON text (with its paging, for a list), or nothing found, or a page below 1. */
export type V2Answer =
  | {
      readonly kind: 'json';
      readonly body: string;
      readonly etag: string;
      readonly paged?: V2Paging;
    }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'bad_page' };

export const notFound: V2Answer = { kind: 'not_found' };

export function jsonAnswer(body: string, paged?: V2Paging): V2Answer {
  // The count is part of the tag: a page past the end is `[]` whatever the count its headers carry.
  const etag = strongTagOf(paged === undefined ? body : `${body}\n${paged.totalCount}`);
  return paged === undefined ? { kind: 'json', body, etag } : { kind: 'json', body, etag, paged };
}

/** How many v2 answers are kept (0: none), and for how long at most. */
export interface V2CacheSettings {
  readonly entries: number;
  readonly ttlMs: number;
}

/**
 * The v2 answers, kept per request key (route, ids, dates, paging, filters) as the public menus are: dropped when a
 * write announces a menu change (ratings do not show in v2), and after `ttlMs`, the longest this instance may miss
 * what other instances wrote. Nothing is kept when `entries` is 0.
 */
export class V2Answers {
  private readonly cache: SingleFlightCache<V2Answer>;

  constructor(
    private readonly clock: Clock,
    private readonly settings: V2CacheSettings,
  ) {
    this.cache = new SingleFlightCache({ entries: settings.entries, touchedMaxAgeMs: 0 });
  }

  readonly onChange = (change: MenuChange): void => {
    if (change.kind === 'menus') this.cache.invalidateAll();
  };

  answer(key: string, compute: () => Promise<V2Answer>): Promise<V2Answer> | V2Answer {
    if (this.settings.entries === 0) return compute();
    const now = this.clock.now().getTime();
    return this.cache.get(key, now, async () => ({
      value: await compute(),
      keep: true,
      expiresAt: now + this.settings.ttlMs,
    }));
  }
}
