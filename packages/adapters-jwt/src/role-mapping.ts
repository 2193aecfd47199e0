import { canteenIdPattern, grantsOf, isStaffScope, type AccessGrants, type Grant } from '@canteen-meals/domain';
import { knownScopes } from './principal.js';

/**
 * Where an identity provider puts a user's roles, and which of this service's scopes each role grants. Keycloak
 * writes `realm_access.roles` (an array), Entra ID `roles` (an array of app roles), Auth0 `permissions` or a
 * namespaced claim such as `https://meals.example/roles`.
 */
export interface RoleMapping {
  /** Claim paths, each a list of keys from the payload down (`realm_access.roles` is `['realm_access', 'roles']`). */
  readonly claimPaths: readonly string[];
  readonly scopesByRole: ReadonlyMap<string, readonly string[]>;
}

/** `realm_access.roles,roles,permissions`: dotted paths separated by commas. */
export function parseRoleClaimPaths(text: string): string[] {
  const paths = text.split(',').map((path) => path.trim());
  if (paths.some((path) => path === '' || path.split('.').some((key) => key === ''))) {
    throw new Error(
      `"${text}" is not a list of claim paths: give dotted paths separated by commas, e.g. realm_access.roles,roles`,
    );
  }
  return paths;
}

/**
 * `canteen-admin=meals:write,meals:read-reports;kitchen=meals:kitchen`: each role, `=`, the scopes it grants; roles
 * separated by `;`. A scope this service does not know is refused, so a typo cannot silently grant nothing.
 */
export function parseRoleScopes(text: string): Map<string, string[]> {
  const mapping = new Map<string, string[]>();
  for (const entry of text
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const separator = entry.lastIndexOf('=');
    const role = entry.slice(0, separator).trim();
    const scopes = entry
      .slice(separator + 1)
      .split(',')
      .map((scope) => scope.trim())
      .filter((scope) => scope !== '');
    if (separator <= 0 || role === '' || scopes.length === 0) {
      throw new Error(`"${entry}" is not of the form role=scope[,scope…]`);
    }
    const unknown = scopes.filter((scope) => !knownScopes.includes(scope));
    if (unknown.length > 0) {
      throw new Error(`role "${role}" names unknown scopes ${unknown.join(', ')} (known: ${knownScopes.join(', ')})`);
    }
    if (mapping.has(role)) throw new Error(`role "${role}" is mapped twice`);
    mapping.set(role, scopes);
  }
  if (mapping.size === 0) throw new Error('no role is mapped: give role=scope[,scope…] separated by ;');
  return mapping;
}

/** The roles a token payload holds at the mapping's paths: arrays of strings, or one space-separated string. */
export function rolesIn(payload: Readonly<Record<string, unknown>>, claimPaths: readonly string[]): string[] {
  const roles: string[] = [];
  for (const path of claimPaths) {
    const value = valueAt(payload, path.split('.'));
    if (typeof value === 'string') roles.push(...value.split(' ').filter((role) => role !== ''));
    else if (Array.isArray(value)) roles.push(...value.filter((role): role is string => typeof role === 'string'));
  }
  return roles;
}

/**
 * The scopes a token's roles grant for every canteen under the mapping; roles the mapping does not name grant nothing,
 * and neither do `ROLE@CANTEEN_ID` roles (see grantsOfRoles).
 */
export function scopesGrantedBy(payload: Readonly<Record<string, unknown>>, mapping: RoleMapping): string[] {
  return rolesIn(payload, mapping.claimPaths).flatMap((role) => mapping.scopesByRole.get(role) ?? []);
}

/**
 * One role or scope as a token writes it, split into what it names and the canteen it is for: `kitchen@mensa-nord` is
 * `kitchen` for `mensa-nord`; `kitchen` (or a role whose text after its last `@` is no canteen id) is for every canteen.
 */
export function splitCanteenSuffix(text: string): { readonly name: string; readonly canteenId: string | null } {
  const at = text.lastIndexOf('@');
  if (at <= 0) return { name: text, canteenId: null };
  const canteenId = text.slice(at + 1);
  return canteenIdPattern.test(canteenId) ? { name: text.slice(0, at), canteenId } : { name: text, canteenId: null };
}

/**
 * The staff grants of a token: each scope of `scopes` (its `scope` claim: `meals:kitchen` for every canteen,
 * `meals:kitchen@mensa-nord` for one) and each role the mapping names (`kitchen` for every canteen, `kitchen@mensa-nord`
 * for one: the scopes TOKEN_ROLE_SCOPES maps `kitchen` to, at that canteen only). A role named exactly as mapped wins
 * over a split one, so a role with an `@` of its own can still be mapped. A canteen that does not exist is kept and
 * grants nothing: the policy is only ever asked about canteens that do.
 */
export function grantsOfToken(
  scopeClaim: readonly string[],
  payload: Readonly<Record<string, unknown>>,
  mapping: RoleMapping | undefined,
): AccessGrants {
  const grants: Grant[] = [];
  for (const entry of scopeClaim) {
    const { name, canteenId } = splitCanteenSuffix(entry);
    if (isStaffScope(name)) grants.push({ scope: name, canteenId });
  }
  if (mapping !== undefined) {
    for (const role of rolesIn(payload, mapping.claimPaths)) {
      const exact = mapping.scopesByRole.get(role);
      const { name, canteenId } = exact === undefined ? splitCanteenSuffix(role) : { name: role, canteenId: null };
      for (const scope of exact ?? mapping.scopesByRole.get(name) ?? []) {
        if (isStaffScope(scope)) grants.push({ scope, canteenId });
      }
    }
  }
  return grantsOf(grants);
}

/**
 * Follows keys down from the payload. A key may itself hold dots (Auth0's namespaced claims are URLs), so at each
 * level the longest run of the remaining keys that names an own property is taken.
 */
function valueAt(node: unknown, keys: readonly string[]): unknown {
  if (keys.length === 0) return node;
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
  for (let take = keys.length; take >= 1; take--) {
    const key = keys.slice(0, take).join('.');
    if (Object.hasOwn(node, key)) return valueAt((node as Record<string, unknown>)[key], keys.slice(take));
  }
  return undefined;
}
