import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-error.js';

/**
 * The JSON body parser of every route, in place of Fastify's: a key that could reach an object's prototype is an
 * unknown field (named), a key twice in one object is not JSON we accept (JSON.parse would keep the last silently),
 * and a route without a body accepts an empty one under `content-type: application/json`.
 */
export function parseJsonBody(request: FastifyRequest, text: string, done: (error: Error | null, body?: unknown) => void): void {
  if (text.length === 0) {
    if (request.routeOptions.schema?.body === undefined) return done(null, undefined);
    return done(new HttpError('invalid_json', 'The body is empty; this route needs a JSON body.'));
  }
  let body: unknown;
  try {
    body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return done(new HttpError('invalid_json', 'The body is not valid JSON.'));
  }
  try {
    // Each key of the text is followed by the one colon outside strings: fewer keys parsed means a key was repeated.
    if (keysOf(body, '') !== colonsOutsideStrings(text)) {
      return done(new HttpError('invalid_json', `The body is not valid JSON here: the key "${repeatedKeyOf(text)}" appears twice in one object.`));
    }
  } catch (error) {
    return done(error as Error);
  }
  done(null, body);
}

/** How many keys the parsed value holds at any depth; throws for a key that names the prototype. */
function keysOf(value: unknown, path: string): number {
  if (typeof value !== 'object' || value === null) return 0;
  if (Array.isArray(value)) {
    let count = 0;
    for (let index = 0; index < value.length; index++) count += keysOf(value[index], `${path}[${index}]`);
    return count;
  }
  const keys = Object.keys(value);
  let count = keys.length;
  for (const key of keys) {
    const field = path === '' ? key : `${path}.${key}`;
    if (key === '__proto__' || key === 'constructor') throw new HttpError('invalid_request', `unknown field "${field}"`);
    count += keysOf((value as Record<string, unknown>)[key], field);
  }
  return count;
}

function colonsOutsideStrings(text: string): number {
  let count = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x3a) count++;
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
