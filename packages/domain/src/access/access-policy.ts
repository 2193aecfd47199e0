import type { CanteenId } from '../canteen/canteen.js';
import { refuse, type Refusal } from '../shared/refusal.js';
import { staffScopes, type AccessGrants, type StaffScope } from './access-grants.js';

/**
 * What each scope implies: `meals:write` is the global admin and implies every other; `meals:manage` (a canteen's
 * manager) implies the kitchen's and the reports' scopes within its canteens. Creating, archiving and restoring
 * canteens and the webhooks need `meals:write` itself.
 */
const impliedBy: Readonly<Record<StaffScope, readonly StaffScope[]>> = {
  'meals:write': ['meals:write', 'meals:manage', 'meals:kitchen', 'meals:read-reports'],
  'meals:manage': ['meals:manage', 'meals:kitchen', 'meals:read-reports'],
  'meals:kitchen': ['meals:kitchen'],
  'meals:read-reports': ['meals:read-reports'],
};

/** Whether holding `held` allows what `needed` allows. */
export function implies(held: StaffScope, needed: StaffScope): boolean {
  return impliedBy[held].includes(needed);
}

function anyImplies(held: ReadonlySet<StaffScope> | undefined, needed: StaffScope): boolean {
  if (held === undefined) return false;
  for (const scope of held) if (implies(scope, needed)) return true;
  return false;
}

/**
 * THE authorization policy: whether grants allow an act that needs `scope` on canteen `canteenId` (null: an act on no
 * one canteen, such as the webhooks, which only a global grant allows).
 */
export function mayAct(grants: AccessGrants, scope: StaffScope, canteenId: CanteenId | null): boolean {
  if (anyImplies(grants.global, scope)) return true;
  return canteenId !== null && anyImplies(grants.byCanteen.get(canteenId), scope);
}

/** Whether the grants allow `scope` on at least one canteen: whether a route that needs it is open to them at all. */
export function mayActSomewhere(grants: AccessGrants, scope: StaffScope): boolean {
  if (anyImplies(grants.global, scope)) return true;
  for (const held of grants.byCanteen.values()) if (anyImplies(held, scope)) return true;
  return false;
}

/** The canteens of `canteenIds` the grants allow `scope` on: what a list answers to them. */
export function canteensAllowed<T extends CanteenId>(
  grants: AccessGrants,
  scope: StaffScope,
  canteenIds: Iterable<T>,
): T[] {
  return [...canteenIds].filter((canteenId) => mayAct(grants, scope, canteenId));
}

/**
 * The policy as a decision over every canteen an act touches (a batch touches several: all or nothing): null when the
 * grants allow all of them, else the refusal naming the first canteen refused and the scope it needs.
 */
export function accessRefusal(
  grants: AccessGrants,
  scope: StaffScope,
  canteenIds: readonly CanteenId[] | null,
): Refusal<'forbidden'> | null {
  if (canteenIds === null) {
    if (mayAct(grants, scope, null)) return null;
    return refuse('forbidden', `This needs the ${scope} scope for every canteen.`).refusal;
  }
  const refused = canteenIds.find((canteenId) => !mayAct(grants, scope, canteenId));
  if (refused === undefined) return null;
  return refuse('forbidden', `You may not do this at the canteen "${refused}": it needs the ${scope} scope there.`)
    .refusal;
}

/** Every scope that `held` allow, implied ones included, in the order of `staffScopes`. */
export function effectiveScopes(held: Iterable<StaffScope>): StaffScope[] {
  const scopes = [...held];
  return staffScopes.filter((scope) => scopes.some((each) => implies(each, scope)));
}

/** What a person may do, as `/me/access` answers it. */
export interface AccessSummary {
  /** The scopes allowed at every canteen, implied ones included. */
  readonly global: readonly StaffScope[];
  /** The scopes allowed at one canteen beyond the global ones, implied ones included; only canteens with some. */
  readonly canteens: ReadonlyMap<CanteenId, readonly StaffScope[]>;
}

/**
 * The grants as a person's access: to the canteens that exist (`existing`), by id; a grant for a canteen that does not
 * exist grants nothing and is left out.
 */
export function accessSummaryOf(grants: AccessGrants, existing: Iterable<CanteenId>): AccessSummary {
  const global = effectiveScopes(grants.global);
  const canteens = new Map<CanteenId, StaffScope[]>();
  for (const canteenId of [...new Set(existing)].sort()) {
    const held = grants.byCanteen.get(canteenId);
    if (held === undefined) continue;
    const beyond = effectiveScopes(held).filter((scope) => !global.includes(scope));
    if (beyond.length > 0) canteens.set(canteenId, beyond);
  }
  return { global, canteens };
}
