import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { AddressPolicy } from './address-policy.js';
import { FeedFetchError } from './feed-fetch-error.js';

/** Resolves a host name to its addresses: DNS by default, a fixed table in tests. */
export type HostLookup = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true });

/** The shape of the `lookup` option of node:net, which http and https hand down to every connection they open. */
type NetLookup = (
  hostname: string,
  options: LookupOptions,
  callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/**
 * A `lookup` for node:net that refuses a host when any of its addresses is not allowed. The check runs on the very
 * addresses the socket then connects to, for every connection (every redirect hop), so neither a redirect nor a
 * DNS answer that changes between a check and the connect (rebinding) gets around it.
 */
export function guardedLookup(
  lookup: HostLookup,
  policy: AddressPolicy | null,
  url: string,
  onLookupFailed: (error: unknown) => FeedFetchError,
): NetLookup {
  return (hostname, options, callback) => {
    lookup(hostname).then(
      (found) => {
        const addresses = found.filter(({ family }) => !options.family || family === options.family);
        if (addresses.length === 0) return callback(new FeedFetchError('network', url, 'host not found'), []);
        const forbidden = policy && addresses.some(({ address }) => policy(address) !== null);
        if (forbidden) return callback(forbiddenAddress(url), []);
        if (options.all) return callback(null, addresses);
        const [first] = addresses as [LookupAddress];
        return callback(null, first.address, first.family);
      },
      (error: unknown) => callback(onLookupFailed(error), []),
    );
  };
}

export const forbiddenAddress = (url: string) =>
  new FeedFetchError(
    'forbidden_address',
    url,
    'the host is not on the public internet (OUTBOUND_ALLOW_PRIVATE_NETWORKS=1 allows it)',
  );
