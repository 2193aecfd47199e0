import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const requestIdHeader = 'x-request-id';
export const maxRequestIdLength = 128;

// Visible ASCII only: an id that ends up in every log line must not carry control characters or line breaks.
const acceptableRequestId = new RegExp(`^[\\x21-\\x7e]{1,${maxRequestIdLength}}$`);

/** Keeps a caller's X-Request-Id when it is 1 to 128 visible ASCII characters; otherwise a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[requestIdHeader];
  return typeof incoming === 'string' && acceptableRequestId.test(incoming) ? incoming : randomUUID();
}
