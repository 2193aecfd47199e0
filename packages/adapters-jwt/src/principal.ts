import type { AccessGrants, UserId } from '@canteen-meals/domain';

/** Who is calling, as established by a verified token and nothing else. */
export interface Principal {
  readonly userId: UserId;
  /** The scopes granted for every canteen (the `scope` claim and the roles without `@`), staff scopes or not. */
  readonly scopes: ReadonlySet<string>;
  /** The staff scopes, for every canteen and per canteen (`ROLE@CANTEEN_ID`): what the access policy decides on. */
  readonly grants: AccessGrants;
}

/** Lets a token write menus, canteens and dishes, run feeds, and read the reports: everything, at every canteen. */
export const adminScope = 'meals:write';

/**
 * A canteen's manager: within its canteens, the canteen's details, feeds, menus, closed days, availability and ratings
 * report; not creating, archiving or restoring canteens, nor the webhooks.
 */
export const manageScope = 'meals:manage';

/** Lets a token read the reports (`GET /admin/reports/...`) and nothing else of the admin routes. */
export const reportsScope = 'meals:read-reports';

/** Lets kitchen staff change what the kitchen decides during service, and nothing of the admin's. */
export const kitchenScope = 'meals:kitchen';

/** Every scope this service grants anything for: a role mapping may name these only. */
export const knownScopes: readonly string[] = [adminScope, reportsScope, kitchenScope, manageScope];
