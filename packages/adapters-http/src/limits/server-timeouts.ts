/** How long a client may take; every value in milliseconds. */
export interface HttpTimeouts {
  /** The whole request, headers and body, must have arrived by then (Node's requestTimeout); 0: no limit. */
  readonly requestMs: number;
  /** The headers must have arrived by then (Node's headersTimeout): what drops a slowloris client. */
  readonly headersMs: number;
  /** An idle keep-alive connection is closed after this (Fastify's keepAliveTimeout). */
  readonly keepAliveMs: number;
  /** A socket with no traffic either way is closed after this (Fastify's connectionTimeout); 0: never. */
  readonly connectionIdleMs: number;
}

/**
 * Fastify's server options for these timeouts. Node checks the header and request deadlines on a timer (every 30 s by
 * default), so the timer runs often enough for a deadline to be enforced within about a second of it.
 */
export function serverTimeoutOptions(timeouts: HttpTimeouts) {
  const shortest = Math.min(timeouts.headersMs, timeouts.requestMs === 0 ? Infinity : timeouts.requestMs);
  if (timeouts.requestMs !== 0 && timeouts.headersMs > timeouts.requestMs) {
    throw new Error('the headers timeout cannot be longer than the request timeout');
  }
  return {
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionTimeout: timeouts.connectionIdleMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.ceil(shortest / 2))),
    },
  };
}
