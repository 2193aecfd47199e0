import type { CanteenId } from '../canteen/canteen.js';

/** The scopes that let staff act on canteens; what each one allows is the access policy's (access-policy.ts). */
export const staffScopes = ['meals:write', 'meals:manage', 'meals:kitchen', 'meals:read-reports'] as const;

export type StaffScope = (typeof staffScopes)[number];

export function isStaffScope(value: unknown): value is StaffScope {
  return typeof value === 'string' && (staffScopes as readonly string[]).includes(value);
}

/**
 * What a person may do, as their token grants it: scopes for every canteen (`global`), and scopes for one canteen
 * each (`byCanteen`). A grant for a canteen that does not exist is kept and grants nothing: no act touches it.
 */
export interface AccessGrants {
  readonly global: ReadonlySet<StaffScope>;
  readonly byCanteen: ReadonlyMap<CanteenId, ReadonlySet<StaffScope>>;
}

/** One grant as a token states it: a scope, for one canteen or (null) for all of them. */
export interface Grant {
  readonly scope: StaffScope;
  readonly canteenId: CanteenId | null;
}

export const noGrants: AccessGrants = { global: new Set(), byCanteen: new Map() };

/** The grants of a list of single grants; a scope granted for all canteens is not repeated per canteen. */
export function grantsOf(grants: Iterable<Grant>): AccessGrants {
  const global = new Set<StaffScope>();
  const byCanteen = new Map<CanteenId, Set<StaffScope>>();
  for (const { scope, canteenId } of grants) {
    if (canteenId === null) global.add(scope);
    else byCanteen.set(canteenId, (byCanteen.get(canteenId) ?? new Set()).add(scope));
  }
  for (const [canteenId, scopes] of byCanteen) {
    for (const scope of global) scopes.delete(scope);
    if (scopes.size === 0) byCanteen.delete(canteenId);
  }
  return { global, byCanteen };
}

/** Whether the grants hold no staff scope at all (a student's token). */
export function isWithoutGrants(grants: AccessGrants): boolean {
  return grants.global.size === 0 && grants.byCanteen.size === 0;
}
