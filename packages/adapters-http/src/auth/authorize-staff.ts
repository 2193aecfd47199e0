import {
  accessRefusal,
  implies,
  mayAct,
  mayActSomewhere,
  staffScopes,
  type CanteenId,
  type StaffScope,
} from '@canteen-meals/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.js';
import type { CanteenLocator } from './canteen-locator.js';
import { staffRouteAccess, type RouteAccess, type Touched } from './route-access.js';

/** What the authorization let a request do: the scope it needed and the canteens it touches (`every`: all). */
export interface GrantedAccess {
  readonly scope: StaffScope;
  readonly canteens: readonly CanteenId[] | 'every';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's access rule (route-access.ts), set for every staff route at registration. */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** Set on a staff route once the access policy allowed the request: what audit records and a route may read. */
    access: GrantedAccess | null;
  }
}

const staffPath = /^\/api\/v\d+\/(admin|kitchen)(\/|$)/;

/**
 * The one authorization of the staff routes, in a plugin whose routes need a user. Every route under `/admin` or
 * `/kitchen` gets its access rule from `rules` by operationId (a staff route without one fails the start); then, for
 * each request:
 * - onRequest, before the body is read: a token that holds the rule's scope at no canteen is refused (403);
 * - preHandler, after validation: the canteens the request touches (its path, its body, what `locate` finds of a meal
 *   or dish) are asked of the domain's access policy, all or nothing; a refusal names the canteen and the scope.
 */
export function authorizeStaff(
  app: FastifyInstance,
  locate: CanteenLocator,
  rules: Readonly<Record<string, RouteAccess>> = staffRouteAccess,
): void {
  app.decorateRequest('access', null);
  app.addHook('onRoute', (route) => {
    const operationId = route.schema?.operationId;
    const rule = typeof operationId === 'string' ? rules[operationId] : undefined;
    if (rule === undefined) {
      if (staffPath.test(route.url)) {
        throw new Error(
          `the staff route ${String(route.method)} ${route.url} (${String(operationId)}) has no access rule: add one to adapters-http/src/auth/route-access.ts`,
        );
      }
      return;
    }
    route.config = { ...route.config, access: rule };
  });

  app.addHook('onRequest', (request, _reply, done) => {
    const rule = request.routeOptions.config.access;
    if (rule === undefined || request.principal === null) return done();
    if (mayActSomewhere(request.principal.grants, rule.scope)) return done();
    done(new HttpError('forbidden', `This route needs a token with ${scopesAllowing(rule.scope)}.`));
  });

  app.addHook('preHandler', async (request) => {
    const rule = request.routeOptions.config.access;
    if (rule === undefined) return;
    const { grants } = principalOf(request);
    if (rule.touches === 'list') {
      request.access = { scope: rule.scope, canteens: mayAct(grants, rule.scope, null) ? 'every' : [] };
      return;
    }
    // A grant for every canteen allows any canteen: nothing to look up.
    if (mayAct(grants, 'meals:write', null)) {
      request.access = { scope: rule.scope, canteens: 'every' };
      return;
    }
    const touched: Touched = await rule.touches(request, locate);
    const scope = touched.scope ?? rule.scope;
    const refusal = accessRefusal(grants, scope, touched.canteens === 'every' ? null : touched.canteens);
    if (refusal !== null) throw new HttpError('forbidden', refusal.message);
    request.access = { scope, canteens: touched.canteens };
  });
}

function principalOf(request: FastifyRequest) {
  if (request.principal === null) throw new Error('a staff route reached without authentication');
  return request.principal;
}

/** `the meals:write scope`, or `one of the scopes meals:kitchen, meals:manage or meals:write`. */
function scopesAllowing(scope: StaffScope): string {
  const allowing = staffScopes.filter((each) => implies(each, scope)).reverse();
  if (allowing.length === 1) return `the ${allowing[0]} scope`;
  return `one of the scopes ${allowing.slice(0, -1).join(', ')} or ${allowing.at(-1)}`;
}

/**
 * Whether the request's grants allow `scope` at every canteen it touches (as the authorization found them): e.g.
 * whether a change of availability may correct another day than today.
 */
export function allowsWhereTouched(request: FastifyRequest, scope: StaffScope): boolean {
  const grants = request.principal?.grants;
  if (grants === undefined || request.access === null) return false;
  if (mayAct(grants, scope, null)) return true;
  const { canteens } = request.access;
  return canteens !== 'every' && canteens.length > 0 && canteens.every((canteenId) => mayAct(grants, scope, canteenId));
}
