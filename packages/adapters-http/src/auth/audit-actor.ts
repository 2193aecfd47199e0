import type { AuditActor } from '@canteen-meals/domain';
import type { FastifyRequest } from 'fastify';
import { authenticatedPrincipal } from './authenticate.js';

/**
 * Who makes a change, for the audit trail (issue 43): the token's subject, its staff scopes as granted (a scope of one
 * canteen written `scope@canteen_id`, as a role names it), and the request's id, which the server log carries too.
 */
export function auditActorOf(request: FastifyRequest): AuditActor {
  const { userId, grants } = authenticatedPrincipal(request);
  const perCanteen = [...grants.byCanteen].flatMap(([canteenId, scopes]) =>
    [...scopes].map((scope) => `${scope}@${canteenId}`),
  );
  return { actor: userId, actorScopes: [...grants.global, ...perCanteen.sort()], requestId: String(request.id) };
}
