// What the service worker and the app agree on: where the worker keeps the public reads, and how it marks an answer
// that came from there instead of the network.

/** The Cache Storage cache of the public API reads the app made last (menus, rankings, canteens, labels). */
export const keptCache = 'canteen-meals-api';

/** Set on an answer the worker gave from its copy because the network did not answer; its `Date` is the copy's. */
export const keptHeader = 'x-meals-kept';

/** The public reads the worker keeps: GETs of these API paths without a token. */
export const keptPaths: readonly string[] = ['/api/v1/meals', '/api/v1/rankings', '/api/v1/canteens', '/api/v1/labels'];
