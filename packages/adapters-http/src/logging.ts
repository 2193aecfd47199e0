import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Log paths that may hold a credential: their values are replaced, whatever else logs the request. */
export const redactedLogPaths = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/**
 * Fastify's logger option with credentials redacted, and a request serializer that keeps the headers (what a 5xx
 * needs to be diagnosed) minus the redacted ones. `false` stays false.
 */
export function loggerWithRedaction(
  logger: FastifyServerOptions['logger'],
): Exclude<FastifyServerOptions['logger'], undefined> {
  if (logger === undefined || logger === false) return false;
  const options = logger === true ? {} : logger;
  return {
    ...options,
    redact: { paths: [...new Set([...redactedLogPaths, ...redactPathsOf(options.redact)])], censor: '[redacted]' },
    serializers: { req: serializeRequest, ...options.serializers },
  };
}

function redactPathsOf(redact: unknown): string[] {
  if (Array.isArray(redact)) return redact as string[];
  if (typeof redact === 'object' && redact !== null && Array.isArray((redact as { paths?: unknown }).paths)) {
    return (redact as { paths: string[] }).paths;
  }
  return [];
}

function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url,
    remoteAddress: request.ip,
    headers: request.headers,
  };
}
