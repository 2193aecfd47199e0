import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { HttpError } from '../http-error.js';
import { InvalidTokenError, type Principal, type TokenVerifier } from '@canteen-meals/adapters-jwt';

// "Bearer" with nothing after it is a bearer request with an empty token: invalid_token, not unauthenticated.
const bearerPrefix = /^Bearer(?: +|$)/i;

/**
 * An onRequest hook for every request, before the rate limiter and before the body is read: verifies a bearer token
 * when there is one and remembers the outcome, so that the limiter can key on the verified user. It refuses nothing:
 * `requireAuthentication` does, on the routes that need a user.
 *
 * The hooks of the hot path take Fastify's `done` callback instead of returning a promise: a fixed-key verifier
 * answers synchronously, and an async hook would cost every request a promise and a trip through the microtasks.
 */
export function identifyCallerWith(verify: TokenVerifier): onRequestHookHandler {
  return function identifyCaller(request, _reply, done) {
    const header = request.headers.authorization;
    if (header === undefined || !bearerPrefix.test(header)) return done();
    let verified: ReturnType<TokenVerifier>;
    try {
      verified = verify(header.replace(bearerPrefix, '').trim());
    } catch (error) {
      rememberRefusal(request, error);
      return done();
    }
    if (!(verified instanceof Promise)) {
      request.principal = verified;
      return done();
    }
    verified.then(
      (principal) => {
        request.principal = principal;
        done();
      },
      (error: unknown) => {
        rememberRefusal(request, error);
        done();
      },
    );
  };
}

function rememberRefusal(request: FastifyRequest, error: unknown): void {
  request.authenticationFailure = error;
  if (error instanceof InvalidTokenError && error.cause !== undefined) {
    request.log.warn({ err: error.cause }, 'a token could not be verified for a server-side reason');
  }
}

/** An onRequest hook for the routes that need a user: 401 unless `identifyCaller` verified one. */
export const requireAuthentication: onRequestHookHandler = (request, _reply, done) => {
  if (request.principal !== null) return done();
  if (request.authenticationFailure !== null) return done(request.authenticationFailure as Error);
  done(
    new HttpError('unauthenticated', 'An Authorization: Bearer token is required.', {
      'www-authenticate': 'Bearer',
    }),
  );
};

// Which staff may do what, at which canteen, is the one staff authorization's: authorize-staff.ts.

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Why the bearer token was refused, when there was one and it was. */
    authenticationFailure: unknown;
  }
}

/**
 * The reader of a route where a token is optional (public menus, dishes): null without a token; a token that is sent
 * must be valid, so a refused one answers as `identifyCaller` refused it.
 */
export function optionalReader(request: FastifyRequest): string | null {
  if (request.authenticationFailure !== null) throw request.authenticationFailure as Error;
  return request.principal?.userId ?? null;
}

/** The principal of a request that passed `requireAuthentication`. */
export function authenticatedPrincipal(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('route reached without authentication');
  return request.principal;
}
