import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.js';
import { adminScope, type Principal } from './principal.js';
import type { TokenVerifier } from './token-verifier.js';

const bearerPrefix = /^Bearer +/i;

/** An onRequest hook: authentication runs before the body is even read. */
export function authenticateWith(verify: TokenVerifier) {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    if (header === undefined || !bearerPrefix.test(header)) {
      throw new HttpError('unauthenticated', 'An Authorization: Bearer token is required.', {
        'www-authenticate': 'Bearer',
      });
    }
    request.principal = verify(header.replace(bearerPrefix, '').trim());
  };
}

export async function requireAdminScope(request: FastifyRequest): Promise<void> {
  if (!request.principal?.scopes.has(adminScope)) {
    throw new HttpError('forbidden', `This route needs a token with the ${adminScope} scope.`);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The principal of a request that passed `authenticate`. */
export function authenticatedPrincipal(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error('route reached without authentication');
  return request.principal;
}
