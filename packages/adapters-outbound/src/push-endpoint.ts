import { nonPublicRangeOf } from './address-policy.js';

/** One attempt at a push service (connection, request, answer) ends within this unless configured otherwise. */
export const defaultPushTimeoutMs = 10_000;

/**
 * The non-public range of a URL's host when a look at the URL alone can tell: an IP literal of a non-public range, or
 * `localhost` (and `*.localhost`, `localhost.`), which is `loopback`; null for a host name or a public address. A name
 * is checked where it counts, on the addresses each connection then goes to (guarded-lookup.ts).
 */
export function nonPublicHostOf(url: URL): string | null {
  // `localhost.` is `localhost`: the resolver ignores the root's dot.
  const host = url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  // The URL parser writes every IPv4 form (0x7f.1, 2130706433) as a dotted quad; an IPv6 literal has colons.
  if (!/^[\d.]+$|:/.test(host)) return null;
  const range = nonPublicRangeOf(host);
  return range === 'not an IP address' ? null : range;
}

/**
 * What is wrong with a push subscription's endpoint under the outbound address rule (undefined: nothing), for a
 * subscription before it is saved, in the words that follow "endpoint": an `https:` URL (RFC 8030 asks push services
 * for HTTPS), `http:` only where private networks are allowed (a local test push service), no credentials, and no
 * host that is a non-public IP literal or `localhost` unless private networks are allowed.
 */
export function pushEndpointProblem(
  url: string,
  { allowPrivateNetworks = false }: { readonly allowPrivateNetworks?: boolean } = {},
): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute https: URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return `must be an https: URL, not ${parsed.protocol}`;
  if (parsed.username !== '' || parsed.password !== '') return 'must not carry a user name or password';
  if (allowPrivateNetworks) return undefined;
  const range = nonPublicHostOf(parsed);
  if (range !== null)
    return `must reach a public address, not a ${range} one (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)`;
  if (parsed.protocol === 'http:')
    return 'must be an https: URL (http: only where OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)';
  return undefined;
}
