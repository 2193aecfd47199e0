import type { FastifyInstance } from 'fastify';

/** Every route of the app, as [method, path], from Fastify's own route tree. */
export function registeredRoutes(app: FastifyInstance): [string, string][] {
  const routes: [string, string][] = [];
  const paths: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (match === null) continue;
    const depth = match[1]!.length / 4;
    const path = `${depth === 0 ? '' : paths[depth - 1]}${match[2]}`;
    paths[depth] = path;
    for (const method of match[3]?.split(', ') ?? []) routes.push([method, path]);
  }
  return routes;
}

/**
 * A URL of the route whose path parameters name things the test app holds (meal 1, the default canteen, dish 1,
 * webhook app-backend, a day of the test menu); swagger-ui's static wildcard (/docs/static/*) becomes one of its files.
 */
export function concreteUrl(path: string): string {
  return (
    path
      .replace(/:meal_id|:mealId/, '1')
      .replace(':canteen_id', 'default')
      .replace(':dish_id', '1')
      .replace(':webhook_id', 'app-backend')
      .replace(':feed_name', 'full')
      .replace(':date', '2026-03-10')
      // OpenMensa's v2 routes name a canteen by its number: the default canteen is 1.
      .replace(/\/:id\b/, '/1')
      .replace(/\/(static\/)?\*$/, '/static/swagger-ui.css')
  );
}
