/** Where the OpenMensa API v2 is served: the path OpenMensa's apps and libraries append to their server's URL. */
export const openMensaV2Prefix = '/api/v2';

/**
 * The URL of a v2 request as the routes know it, for the paths real clients send: a base URL with a trailing slash
 * (`/api/v2//canteens`), a trailing `/`, a bare trailing `?`, a `.json` suffix (Rails' format). Other URLs stay as
 * they are. For Fastify's `rewriteUrl`, so it runs on every request: a prefix test first.
 */
export function openMensaV2Url(url: string): string {
  if (!url.startsWith(openMensaV2Prefix)) return url;
  const queryAt = url.indexOf('?');
  let path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt + 1);
  if (path.length > openMensaV2Prefix.length && path[openMensaV2Prefix.length] !== '/') return url;
  path = path.replace(/\/{2,}/g, '/');
  if (path.endsWith('/')) path = path.slice(0, -1);
  if (path.endsWith('.json')) path = path.slice(0, -'.json'.length);
  return query === '' ? path : `${path}?${query}`;
}
