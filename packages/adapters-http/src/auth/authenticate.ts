import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.js';
import { adminScope, type Principal } from './principal.js';
import type { TokenVerifier } from './token-verifier.js';

// "Bearer" with nothing after it is a bearer request with an empty token: invalid_token, not unauthenticated.
const bearerPrefix = /^Bearer(?: +|$)/i;

/**
 * An onRequest hook for every request, before the rate limiter and before the body is read: verifies a bearer token
 * when there is one and remembers the outcome, so that the limiter can key on the verified user. It refuses nothing:
 * `requireAuthentication` does, on the routes that need a user.
 */
export function identifyCallerWith(verify: TokenVerifier) {
  return async function identifyCaller(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    if (header === undefined || !bearerPrefix.test(header)) return;
    try {
      const verified = verify(header.replace(bearerPrefix, '').trim());
      // A fixed-key verifier answers synchronously: no promise to wait for on the hot path.
      request.principal = verified instanceof Promise ? await verified : verified;
    } catch (error) {
      request.authenticationFailure = error;
      if (error instanceof HttpError && error.cause !== undefined) {
        request.log.warn({ err: error.cause }, 'a token could not be verified for a server-side reason');
      }
    }
  };
}

/** An onRequest hook for the routes that need a user: 401 unless `identifyCaller` verified one. */
export async function requireAuthentication(request: FastifyRequest): Promise<void> {
  if (request.principal !== null) return;
  if (request.authenticationFailure !== null) throw request.authenticationFailure;
  throw new HttpError('unauthenticated', 'An Authorization: Bearer token is required.', {
    'www-authenticate': 'Bearer',
  });
}

export async function requireAdminScope(request: FastifyRequest): Promise<void> {
  if (!request.principal?.scopes.has(adminScope)) {
    throw new HttpError('forbidden', `This route needs a token with the ${adminScope} scope.`);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Why the bearer token was refused, when there was one and it was. */
    authenticationFailure: unknown;
  }
}

/** The principal of a request that passed `requireAuthentication`. */
export function authenticatedPrincipal(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('route reached without authentication');
  return request.principal;
}
