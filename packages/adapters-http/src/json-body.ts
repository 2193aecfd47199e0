import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-error.js';

/**
 * The JSON body parser of every route, in place of Fastify's: a key that could reach an object's prototype is an
 * unknown field (named), a key twice in one object is not JSON we accept (JSON.parse would keep the last silently),
 * and a route without a body accepts an empty one under `content-type: application/json`.
 */
export function parseJsonBody(
  request: FastifyRequest,
  text: string,
  done: (error: Error | null, body?: unknown) => void,
): void {
  if (text.length === 0) {
    if (request.routeOptions.schema?.body === undefined) return done(null, undefined);
    return done(new HttpError('invalid_json', 'The body is empty; this route needs a JSON body.'));
  }
  // One pass over the text before JSON.parse: nesting past the bound is refused before anything recurses over it.
  const shape = shapeOf(text);
  if (shape.tooDeep)
    return done(
      new HttpError('invalid_json', `The body is not JSON we accept: it nests deeper than ${maxJsonDepth} levels.`),
    );
  let body: unknown;
  try {
    body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return done(new HttpError('invalid_json', 'The body is not valid JSON.'));
  }
  try {
    // Each key of the text is followed by the one colon outside strings: fewer keys parsed means a key was repeated.
    if (keysOf(body) !== shape.colons) {
      return done(
        new HttpError(
          'invalid_json',
          `The body is not valid JSON here: the key "${repeatedKeyOf(text)}" appears twice in one object.`,
        ),
      );
    }
  } catch (error) {
    return done(error as Error);
  }
  done(null, body);
}

/**
 * How deep a JSON body may nest objects and arrays: our deepest body (an upsert's meal prices) is 4 levels; a bound
 * far above it keeps every walk over a parsed body short, whatever the 1 MiB of an admin body holds.
 */
export const maxJsonDepth = 64;

/** The colons outside strings, and whether brackets outside strings nest past maxJsonDepth (the scan stops there). */
function shapeOf(text: string): { colons: number; tooDeep: boolean } {
  let colons = 0;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x3a) colons++;
    else if (char === 0x7b || char === 0x5b) {
      if (++depth > maxJsonDepth) return { colons, tooDeep: true };
    } else if (char === 0x7d || char === 0x5d) depth--;
  }
  return { colons, tooDeep: false };
}

/**
 * How many keys the parsed value holds at any depth; throws for a key that names the prototype. A loop over a stack,
 * not recursion: no body can overflow the call stack here, whatever bound the parser above keeps.
 */
function keysOf(root: unknown): number {
  let count = 0;
  const pending: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--)
        pending.push({ value: value[index], path: `${path}[${index}]` });
      continue;
    }
    const keys = Object.keys(value);
    count += keys.length;
    for (const key of keys) {
      const field = path === '' ? key : `${path}.${key}`;
      if (key === '__proto__' || key === 'constructor')
        throw new HttpError('invalid_request', `unknown field "${field}"`);
      pending.push({ value: (value as Record<string, unknown>)[key], path: field });
    }
  }
  return count;
}

/** The slow path, only for a body known to repeat a key (and known to be valid JSON): which key. */
function repeatedKeyOf(text: string): string {
  const objects: (Set<string> | null)[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char === 0x22) {
      let end = index + 1;
      while (text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c ? 2 : 1;
      const literal = text.slice(index, end + 1);
      index = end + 1;
      while (/\s/.test(text.charAt(index))) index++;
      if (text.charAt(index) === ':') {
        const keys = objects.at(-1);
        const key = JSON.parse(literal) as string;
        if (keys?.has(key)) return key;
        keys?.add(key);
      }
      continue;
    }
    if (char === 0x7b) objects.push(new Set());
    else if (char === 0x5b) objects.push(null);
    else if (char === 0x7d || char === 0x5d) objects.pop();
    index++;
  }
  return '';
}

/**
 * A preValidation hook for the routes that need a JSON body: a request with no body at all carries no content type
 * for Fastify to parse, and is still a missing JSON body (`invalid_json`), not a schema error.
 */
export function requireJsonBody(request: FastifyRequest, _reply: unknown, done: (error?: Error) => void): void {
  done(request.body === undefined ? new HttpError('invalid_json', 'A JSON body is required.') : undefined);
}

/**
 * A preValidation hook for a route whose body is optional and, when sent, the empty object (DELETE /me/data): a
 * field in it is unknown, as on every other route, not silently ignored.
 */
export function refuseFieldsOfEmptyBody(request: FastifyRequest, _reply: unknown, done: (error?: Error) => void): void {
  const { body } = request;
  if (body === undefined) return done();
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return done(new HttpError('invalid_request', 'the body must be an object'));
  const [field] = Object.keys(body);
  done(field === undefined ? undefined : new HttpError('invalid_request', `unknown field "${field}"`));
}
