import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether a GET may answer 304: the request's If-None-Match names the current tag (RFC 9110, 13.1.2: weak comparison,
 * `*` matches any current representation). The request's own cache directives play no part: `Cache-Control: no-cache`
 * asks caches on the way to revalidate, and the origin is where that happens (RFC 9111, 5.2.1.4). Every `fetch()` that
 * sets If-None-Match by hand adds that header, so an origin that skipped the validator would never answer one 304.
 */
export function ifNoneMatchHolds(headers: IncomingHttpHeaders, etag: string): boolean {
  const header = headers['if-none-match'];
  if (header === undefined) return false;
  const current = opaqueTagOf(etag);
  return anyTagOf(header, (tag) => tag === '*' || tag === current);
}

/** The opaque part of an entity tag, without `W/`: what weak comparison compares. */
function opaqueTagOf(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/**
 * Calls `matches` with each member of an If-None-Match list (`*`, or quoted tags with their quotes, `W/` dropped) until
 * one matches. A comma inside quotes belongs to the tag; anything that is not a tag ends the list, as no tag can match
 * a malformed header's remainder reliably.
 */
function anyTagOf(header: string, matches: (tag: string) => boolean): boolean {
  if (header.trim() === '*') return matches('*');
  const member = /\s*(?:W\/)?("[^"]*")\s*(?:,|$)/y;
  member.lastIndex = 0;
  while (member.lastIndex < header.length) {
    const found = member.exec(header);
    if (found === null) return false;
    if (matches(found[1]!)) return true;
    if (member.lastIndex === header.length) return false;
  }
  return false;
}
