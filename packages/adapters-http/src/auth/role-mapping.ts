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

/** The scopes a token's roles grant under the mapping; roles the mapping does not name grant nothing. */
export function scopesGrantedBy(payload: Readonly<Record<string, unknown>>, mapping: RoleMapping): string[] {
  return rolesIn(payload, mapping.claimPaths).flatMap((role) => mapping.scopesByRole.get(role) ?? []);
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
