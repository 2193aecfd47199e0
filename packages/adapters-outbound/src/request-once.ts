import { request as httpRequest, type Agent, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { AddressPolicy } from './address-policy.js';
import { FeedFetchError } from './feed-fetch-error.js';
import { forbiddenAddress, guardedLookup, type HostLookup } from './guarded-lookup.js';

export interface Hop {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly lookup: HostLookup;
  /** null: every address is allowed (allowPrivateNetworks). */
  readonly policy: AddressPolicy | null;
  readonly connectTimeoutMs: number;
  /** Aborted when the attempt's total time is up, with the FeedFetchError to report as its reason. */
  readonly signal: AbortSignal;
  readonly abort: (reason: FeedFetchError) => void;
  /** GET without a body unless told otherwise (a webhook is a POST). */
  readonly method?: 'GET' | 'POST';
  readonly body?: Buffer;
  /**
   * Keep-alive connections of one sender under one address rule (Web Push): each is checked by the guarded lookup when
   * it is made. Without: a connection of its own.
   */
  readonly agent?: Agent;
}

/** One request on one connection, up to the answer's headers; the caller reads or destroys the body. */
export function requestOnce(hop: Hop): Promise<IncomingMessage> {
  const url = hop.url.href;
  const host = hop.url.hostname.replace(/^\[(.*)\]$/, '$1');
  // node:net connects to an IP literal without any lookup, so a literal is checked here.
  if (isIP(host) && hop.policy?.(host) != null) return Promise.reject(forbiddenAddress(url));

  const secure = hop.url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)({
      host,
      port: hop.url.port || (secure ? 443 : 80),
      path: `${hop.url.pathname}${hop.url.search}`,
      method: hop.method ?? 'GET',
      headers: hop.headers,
      // A connection of its own per hop unless the caller keeps its own (made under the same rule): a socket pooled
      // with other callers' would skip the lookup, and with it the address check.
      agent: hop.agent ?? false,
      lookup: guardedLookup(hop.lookup, hop.policy, url, (error) => networkError(url, error)),
      signal: hop.signal,
    });

    const connectTimer = setTimeout(
      () => hop.abort(new FeedFetchError('timeout', url, `no connection within ${hop.connectTimeoutMs} ms`)),
      hop.connectTimeoutMs,
    );
    request.once('socket', (socket) => {
      // A kept connection is connected already.
      if (!socket.connecting && hop.agent !== undefined) clearTimeout(connectTimer);
      else socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    request.once('close', () => clearTimeout(connectTimer));
    request.once('response', (response) => {
      clearTimeout(connectTimer);
      resolve(response);
    });
    request.on('error', (error) => {
      clearTimeout(connectTimer);
      if (hop.signal.aborted) reject(hop.signal.reason);
      else reject(error instanceof FeedFetchError ? error : networkError(url, error));
    });
    request.end(hop.body);
  });
}

const reasons: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed (temporary)',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** A network failure by its code only: Node's own messages name addresses and ports. */
export function networkError(url: string, error: unknown): FeedFetchError {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : null;
  const reason = code === null ? 'network error' : (reasons[code] ?? `network error (${code})`);
  return new FeedFetchError('network', url, reason);
}
