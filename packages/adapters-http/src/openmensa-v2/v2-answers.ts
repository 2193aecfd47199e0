import type { Clock, MenuChange } from '@canteen-meals/domain';
import type { MenuCacheSettings } from '../menu/menu-answers.js';
import { strongTagOf } from '../menu/menu-answers.js';
import type { PageOf } from './v2-paging.js';

/** What a v2 route answers: a JSON text (with its paging, for a list), or nothing found, or a page below 1. */
export type V2Answer =
  | {
      readonly kind: 'json';
      readonly body: string;
      readonly etag: string;
      readonly paged?: Omit<PageOf<unknown>, 'items'>;
    }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'bad_page' };

export const notFound: V2Answer = { kind: 'not_found' };

export function jsonAnswer(body: string, paged?: Omit<PageOf<unknown>, 'items'>): V2Answer {
  // The count is part of the tag: a page past the end is `[]` whatever the count its headers carry.
  const etag = strongTagOf(paged === undefined ? body : `${body}\n${paged.totalCount}`);
  return paged === undefined ? { kind: 'json', body, etag } : { kind: 'json', body, etag, paged };
}

interface Kept {
  readonly answer: V2Answer;
  readonly expiresAt: number;
}

/**
 * The v2 answers, kept per request key (route, ids, dates, paging, filters) as the public menus are: dropped when a
 * write announces a menu change (ratings do not show in v2), and after `ttlMs`, the longest this instance may miss
 * what other instances wrote. Nothing is kept when `entries` is 0.
 */
export class V2Answers {
  private readonly kept = new Map<string, Kept>();
  private readonly flights = new Map<string, Promise<V2Answer>>();
  private epoch = 0;

  constructor(
    private readonly clock: Clock,
    private readonly settings: MenuCacheSettings,
  ) {}

  readonly onChange = (change: MenuChange): void => {
    if (change.kind !== 'menus') return;
    this.epoch += 1;
    this.kept.clear();
    this.flights.clear();
  };

  answer(key: string, compute: () => Promise<V2Answer>): Promise<V2Answer> | V2Answer {
    if (this.settings.entries === 0) return compute();
    const now = this.clock.now().getTime();
    const kept = this.kept.get(key);
    if (kept !== undefined && now < kept.expiresAt) return kept.answer;
    const flight = this.flights.get(key);
    if (flight !== undefined) return flight;
    const epoch = this.epoch;
    const promise = compute().then((answer) => {
      if (this.flights.get(key) === promise) this.flights.delete(key);
      if (epoch === this.epoch) this.keep(key, { answer, expiresAt: now + this.settings.ttlMs });
      return answer;
    });
    promise.catch(() => this.flights.delete(key));
    this.flights.set(key, promise);
    return promise;
  }

  private keep(key: string, kept: Kept): void {
    this.kept.delete(key);
    // Full: the answer kept longest goes (a Map iterates in insertion order).
    if (this.kept.size >= this.settings.entries) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, kept);
  }
}
