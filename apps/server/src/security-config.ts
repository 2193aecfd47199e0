import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { minSecretBytes, publicKeyAlgorithm, type HttpTimeouts, type TrustProxy } from '@canteen-meals/adapters-http';
import { ConfigError } from './config-error.js';

// The settings that decide who gets in and how much a client may ask, parsed and cross-checked (the table is
// config.ts).

export type JwtKeySource =
  | { readonly kind: 'secret' }
  | { readonly kind: 'public-key'; readonly path: string; readonly pem: string }
  | { readonly kind: 'jwks'; readonly url: URL; readonly issuer: string; readonly cooldownMs: number };

export interface KeySettings {
  readonly production: boolean;
  /** Which key variables are set at all (a value that failed to parse is already a problem of its own). */
  readonly present: { readonly secret: boolean; readonly publicKeyFile: boolean; readonly jwksUrl: boolean };
  readonly jwtIssuer: string | undefined;
  readonly publicKeyFile: string | undefined;
  readonly jwksUrl: URL | undefined;
  readonly jwksCooldownS: number;
}

/** Exactly one key verifies tokens: two would leave it unclear which one an attacker has to forge. */
export function jwtKeySource(given: KeySettings): JwtKeySource {
  const named = [
    given.present.secret ? ['JWT_SECRET'] : [],
    given.present.publicKeyFile ? ['JWT_PUBLIC_KEY_FILE'] : [],
    given.present.jwksUrl ? ['JWT_JWKS_URL'] : [],
  ].flat();
  if (named.length > 1) {
    throw new ConfigError(
      `Configure exactly one token key, not ${named.join(' and ')}: JWT_SECRET, JWT_PUBLIC_KEY_FILE or JWT_JWKS_URL.`,
    );
  }
  if (given.publicKeyFile !== undefined) return publicKeySource(given.publicKeyFile);
  if (given.jwksUrl !== undefined) {
    if (given.jwtIssuer === undefined) {
      throw new ConfigError(
        'JWT_JWKS_URL needs JWT_ISSUER: a key set serves one issuer, and only its tokens are accepted.',
      );
    }
    if (given.production && given.jwksUrl.protocol !== 'https:') {
      throw new ConfigError(
        'JWT_JWKS_URL must be https when NODE_ENV=production: whoever can alter the keys can forge tokens.',
      );
    }
    return { kind: 'jwks', url: given.jwksUrl, issuer: given.jwtIssuer, cooldownMs: given.jwksCooldownS * 1000 };
  }
  if (given.production && !given.present.secret && !given.present.jwksUrl) {
    throw new ConfigError(
      `JWT_SECRET is required when NODE_ENV=production (at least ${minSecretBytes} bytes), unless JWT_PUBLIC_KEY_FILE or JWT_JWKS_URL names the token keys: set it in the environment or in .env, e.g. JWT_SECRET=$(openssl rand -base64 48).`,
    );
  }
  return { kind: 'secret' };
}

function publicKeySource(path: string): JwtKeySource {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`JWT_PUBLIC_KEY_FILE cannot be read: ${(error as Error).message}`);
  }
  try {
    publicKeyAlgorithm(pem);
  } catch (error) {
    throw new ConfigError(`JWT_PUBLIC_KEY_FILE (${path}): ${(error as Error).message}.`);
  }
  return { kind: 'public-key', path, pem };
}

export function httpTimeouts(timeouts: HttpTimeouts): HttpTimeouts {
  if (timeouts.requestMs !== 0 && timeouts.headersMs > timeouts.requestMs) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS cannot be longer than HTTP_REQUEST_TIMEOUT_MS.');
  }
  if (timeouts.connectionIdleMs !== 0 && timeouts.connectionIdleMs <= timeouts.keepAliveMs) {
    throw new ConfigError('HTTP_CONNECTION_TIMEOUT_MS must be 0 or longer than HTTP_KEEP_ALIVE_TIMEOUT_MS.');
  }
  return timeouts;
}

export function httpUrl(raw: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, not "${raw}".`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError(`${name} must be an http(s) URL, not "${raw}".`);
  return url;
}

const namedProxyRanges = ['loopback', 'linklocal', 'uniquelocal'];

/** Fastify's trustProxy: a boolean, a hop count, or the addresses and CIDR ranges of the trusted proxies. */
export function trustProxy(raw: string, name: string): TrustProxy {
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 100) throw new ConfigError(`${name} as a hop count must be 1 to 100, not ${value}.`);
    return hops;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const prefixOk = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (!namedProxyRanges.includes(entry) && (family === 0 || !prefixOk || rest.length > 0)) {
      throw new ConfigError(
        `${name} must be true, false, a hop count, or addresses/CIDRs separated by commas (or loopback, linklocal, uniquelocal); "${entry}" is none of these.`,
      );
    }
  }
  return entries;
}

/** Comma-separated exact origins (`https://app.example.com`): scheme, host and optional port; no path, no wildcard. */
export function corsOrigins(raw: string, name: string): readonly string[] {
  const origins = raw
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    // A browser sends its origin exactly so (lower case, no default port, no trailing slash): anything else never
    // matches.
    const hostname = parsed?.hostname ?? '';
    const validHost = /^[a-z0-9.-]+$/.test(hostname) || /^\[[0-9a-f:.]+\]$/.test(hostname);
    if (
      parsed === undefined ||
      !['http:', 'https:'].includes(parsed.protocol) ||
      parsed.origin !== origin ||
      !validHost
    ) {
      throw new ConfigError(
        `${name} must list origins such as https://app.example.com (scheme and host, no path), not "${origin}".`,
      );
    }
  }
  return origins;
}

const minMetricsTokenLength = 16;

export function metricsToken(raw: string, name: string): string {
  if (raw.length < minMetricsTokenLength || /\s/.test(raw)) {
    throw new ConfigError(
      `${name} must be at least ${minMetricsTokenLength} characters without spaces (it has ${raw.length}).`,
    );
  }
  return raw;
}
