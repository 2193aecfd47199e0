import type { UserId } from '@canteen-meals/domain';

/** Who is calling, as established by a verified token and nothing else. */
export interface Principal {
  readonly userId: UserId;
  readonly scopes: ReadonlySet<string>;
}

/** Lets a token write menus, canteens and dishes, run feeds, and read the reports. */
export const adminScope = 'meals:write';

/** Lets a token read the reports (`GET /admin/reports/...`) and nothing else of the admin routes. */
export const reportsScope = 'meals:read-reports';

/** Lets kitchen staff change what the kitchen decides during service, and nothing of the admin's. */
export const kitchenScope = 'meals:kitchen';

/** Every scope this service grants anything for: a role mapping may name these only. */
export const knownScopes: readonly string[] = [adminScope, reportsScope, kitchenScope];
