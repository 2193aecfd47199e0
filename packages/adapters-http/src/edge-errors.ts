import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope } from './error-handler.js';
import { httpStatusOf, type ErrorCode } from './error-mapping.js';

/*
 * Errors raised before a request reaches the router or a route: they answer in the same envelope, with the same
 * security headers as every other answer, and never echo what the client sent.
 */

/** Node's HTTP parser errors (Fastify's clientErrorHandler): a raw HTTP/1.1 answer, then the socket is closed. */
export function answerClientError(securityHeaders: Readonly<Record<string, string>>) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // An answer already begun on this socket cannot be followed by another (Node's own rule).
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && inFlight?.headersSent !== true)
      socket.write(rawAnswer(clientErrorOf(error.code), securityHeaders));
    socket.destroy(error);
  };
}

function clientErrorOf(nodeCode: string | undefined): { code: ErrorCode; message: string } {
  if (nodeCode === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { code: 'request_timeout', message: 'The request did not arrive in time.' };
  }
  if (nodeCode === 'HPE_HEADER_OVERFLOW') {
    return { code: 'headers_too_large', message: 'The request headers are too large.' };
  }
  return { code: 'invalid_request', message: 'The request is not valid HTTP/1.1.' };
}

function rawAnswer(
  { code, message }: { code: ErrorCode; message: string },
  securityHeaders: Readonly<Record<string, string>>,
) {
  const status = httpStatusOf[code];
  const body = JSON.stringify(errorEnvelope(code, message));
  const headers = {
    ...securityHeaders,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`;
}

/** The router's own errors (Fastify's frameworkErrors): a URL it cannot decode, a path parameter over its limit. */
export function answerFrameworkError(securityHeaders: Readonly<Record<string, string>>) {
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void => {
    const { code, message } = frameworkErrorOf(error.code);
    void reply.code(httpStatusOf[code]).headers(securityHeaders).send(errorEnvelope(code, message));
  };
}

function frameworkErrorOf(fastifyCode: string): { code: ErrorCode; message: string } {
  if (fastifyCode === 'FST_ERR_BAD_URL') {
    return { code: 'invalid_url', message: 'The URL is not valid: it holds a malformed percent-encoding.' };
  }
  if (fastifyCode === 'FST_ERR_MAX_PARAM_LENGTH')
    return { code: 'invalid_request', message: 'A path parameter is too long.' };
  return { code: 'internal_error', message: 'Internal server error.' };
}
