/**
 * Paging as openmensa.org pages its lists (its Api::BaseController with the paginate-responder gem over
 * will_paginate): `per_page` wins over `limit`, default 500, clamped to 1..1500; `page` defaults to 1, and one below 1
 * is refused; a page past the end is an empty list.
 */
export const defaultPerPage = 500;
export const maxPerPage = 1500;

export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
}

/** The query as Fastify parses it: a repeated key arrives as an array, of which Rails takes the last. */
export type RawQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

export function lastValueOf(query: RawQuery, key: string): string | undefined {
  const value = query[key];
  return Array.isArray(value) ? value.at(-1) : (value as string | undefined);
}

/** Ruby's String#to_i: the leading integer, 0 when there is none. */
export function rubyToI(text: string): number {
  const match = /^\s*([+-]?\d+)/.exec(text);
  return match === null ? 0 : Number.parseInt(match[1]!, 10);
}

/** The page asked for, or undefined when it is below 1 (openmensa.org answers 400). */
export function pageRequestOf(query: RawQuery): PageRequest | undefined {
  const perPageText = lastValueOf(query, 'per_page') ?? lastValueOf(query, 'limit');
  const asked = perPageText === undefined ? defaultPerPage : rubyToI(perPageText);
  const perPage = Math.min(Math.max(asked, 1), maxPerPage);
  // Ruby's Integer(): the whole text must be an integer, else page 1.
  const pageText = (lastValueOf(query, 'page') ?? '').trim().replaceAll('_', '');
  const page = /^[+-]?\d+$/.test(pageText) ? Number.parseInt(pageText, 10) : 1;
  // Past 2^53 - 1 a page number is no longer exact (a long enough one is Infinity): no list has such a page.
  return page < 1 || !Number.isSafeInteger(page) ? undefined : { page, perPage };
}

export interface PageOf<T> {
  readonly items: readonly T[];
  readonly totalCount: number;
  /** At least 1, as will_paginate counts an empty list as one page. */
  readonly totalPages: number;
  readonly page: number;
  readonly perPage: number;
}

export function pageOf<T>(all: readonly T[], { page, perPage }: PageRequest): PageOf<T> {
  const start = (page - 1) * perPage;
  return {
    items: all.slice(start, start + perPage),
    totalCount: all.length,
    totalPages: Math.max(1, Math.ceil(all.length / perPage)),
    page,
    perPage,
  };
}

/**
 * The paging headers of paginate-responder: `Link` with `first`, `prev`, `next`, `last` (each where it exists) to the
 * same URL with the request's parameters and the page replaced (`per_page` written as used when it was given), and
 * the X-* counts.
 */
export function pagingHeaders(
  paged: Omit<PageOf<unknown>, 'items'>,
  base: string,
  query: RawQuery,
): Record<string, string> {
  const link = (rel: string, page: number) => `<${base}${queryWith(query, page, paged.perPage)}>; rel="${rel}"`;
  const links = [link('first', 1)];
  if (paged.page > 1) links.push(link('prev', paged.page - 1));
  if (paged.page < paged.totalPages) links.push(link('next', paged.page + 1));
  links.push(link('last', paged.totalPages));
  return {
    link: links.join(', '),
    'x-total-pages': String(paged.totalPages),
    'x-total-count': String(paged.totalCount),
    'x-per-page': String(paged.perPage),
    'x-current-page': String(paged.page),
  };
}

/** The query with `page` (and `per_page`, when given) set, in key order as Rails' to_query writes it. */
function queryWith(query: RawQuery, page: number, perPage: number): string {
  const params = new Map<string, string>();
  for (const key of Object.keys(query)) {
    const value = lastValueOf(query, key);
    if (value !== undefined) params.set(key, value);
  }
  if (params.has('per_page')) params.set('per_page', String(perPage));
  params.set('page', String(page));
  const pairs = [...params.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `?${pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&')}`;
}
