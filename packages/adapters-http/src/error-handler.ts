import { InvalidTokenError } from '@canteen-meals/adapters-jwt';
import { isStorageUnavailable } from '@canteen-meals/domain';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorCodeOfFastify, httpStatusOf, type ErrorCode } from './error-mapping.js';
import { HttpError } from './http-error.js';
import { exampleMessageOf } from './schemas/error-responses.js';

interface WireError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A restarting database or a full pool is usually back within seconds: when a client may try again. */
const storageRetryHeaders = { 'retry-after': '2' } as const;

/** Classifies anything thrown while serving a request; what it does not recognise is an internal error. */
export function wireErrorOf(error: unknown): WireError {
  if (error instanceof HttpError || error instanceof InvalidTokenError) return error;
  // Why the storage fails (a path, an SQLite or PostgreSQL message) is for the log only.
  if (isStorageUnavailable(error)) {
    return { code: 'storage_unavailable', message: exampleMessageOf.storage_unavailable, headers: storageRetryHeaders };
  }
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.validation !== undefined) return { code: 'invalid_request', message: fastifyError.message ?? '' };
  const known = fastifyError.code === undefined ? undefined : errorCodeOfFastify[fastifyError.code];
  if (known !== undefined) return { code: known, message: fastifyError.message ?? '' };
  // secure-json-parse rejects __proto__ and constructor keys with a SyntaxError that Fastify marks 400.
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return { code: 'invalid_json', message: 'The body is not valid JSON.' };
  }
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode < 500) {
    return { code: 'invalid_request', message: fastifyError.message ?? 'The request is not valid.' };
  }
  return { code: 'internal_error', message: 'Internal server error.' };
}

export function errorEnvelope<const C extends ErrorCode>(code: C, message: string) {
  return { status: 'error' as const, error: { code, message } };
}

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const { code, message, headers } = wireErrorOf(error);
  const status = httpStatusOf[code];
  // 5xx details go to the log with the request id (and the request, credentials redacted), never to the client.
  // An unavailable storage was logged once, when it failed: one line per refused request would bury it.
  if (status >= 500 && code !== 'storage_unavailable')
    request.log.error({ err: error, req: request }, 'request failed');
  if (headers !== undefined) reply.headers(headers);
  return reply.code(status).send(errorEnvelope(code, message));
}
