import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets, computed once. They do not depend on the request, while @fastify/helmet rebuilt helmet's
 * whole middleware for every request (docs/decisions.md, "Security headers").
 * No Content-Security-Policy: the API answers JSON, which a browser never renders as a page.
 */
export function securityHeaders(
  options: HelmetOptions = { contentSecurityPolicy: false },
): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader(name: string, value: number | string | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
      return collector;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  // helmet's middleware is synchronous: every header is set before this call returns.
  helmet(options)({} as IncomingMessage, collector as unknown as ServerResponse, (error?: unknown) => {
    if (error !== undefined && error !== null) throw error;
  });
  return headers;
}
