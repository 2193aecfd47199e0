/** Every setting the server reads, each with its default and what it allows: the one configuration schema. */

import { defaultLiveOptions } from '@canteen-meals/adapters-http-live';
import type { PageSignIn } from '@canteen-meals/adapters-http-pages';
import {
  defaultHttpTimeouts,
  parseRoleClaimPaths,
  parseRoleScopes,
  type HttpTimeouts,
  type MenuCachingOptions,
  type RateLimits,
  type RoleMapping,
  type TrustProxy,
} from '@canteen-meals/adapters-http';
import { createHmac } from 'node:crypto';
import {
  defaultDeliverySettings,
  defaultWebhookRetryBaseMs,
  isLocalTime,
  isTimeZone,
  type RankingSettings,
} from '@canteen-meals/domain';
import { defaultWebhookTimeoutMs } from '@canteen-meals/adapters-outbound/policy';
import { ConfigError } from './config-error.js';
import {
  corsOrigins,
  httpTimeouts,
  httpUrl,
  jwtKeySource,
  metricsToken,
  trustProxy,
  type JwtKeySource,
} from './security-config.js';

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string }
  | { readonly kind: 'memory' };

export interface PostgresConnectionConfig {
  /** `transaction`: DATABASE_URL goes through a transaction-pooling proxy (nothing relies on session state). */
  readonly poolMode: 'session' | 'transaction';
  readonly poolQueueTimeoutMs: number;
  /** 0: no limit. */
  readonly statementTimeoutMs: number;
  /** Where the migrations run (they need a session of their own); undefined: see DATABASE_MIGRATION_URL. */
  readonly migrationUrl: string | undefined;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  readonly production: boolean;
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  /** In production, create a missing SQLite database file instead of refusing to start. */
  readonly databaseCreate: boolean;
  readonly sqliteSynchronous: 'normal' | 'full';
  readonly postgresPoolSize: number;
  /** Where each instance LISTENs for the other instances' changes on PostgreSQL; undefined: the database URL. */
  readonly databaseListenUrl: string | undefined;
  /** PostgreSQL's connection behaviour: see the DATABASE_* settings below. */
  readonly postgres: PostgresConnectionConfig;
  /** How long a start waits for PostgreSQL to answer (retrying with backoff) before it gives up. */
  readonly databaseConnectTimeoutMs: number;
  /**
   * `database`: on PostgreSQL, every instance counts each caller's requests in one shared count; `memory`: each on its
   * own.
   */
  readonly rateLimitStore: 'database' | 'memory';
  readonly jwtSecret: string;
  /** True when no JWT_SECRET was given and the development secret stands in. */
  readonly jwtSecretIsDevelopmentDefault: boolean;
  readonly jwtIssuer: string | undefined;
  readonly jwtAudience: string | undefined;
  readonly jwtClockToleranceMs: number;
  readonly jwtMaxLifetimeMs: number;
  /**
   * Scopes granted by the identity provider's roles (TOKEN_ROLES_CLAIM, TOKEN_ROLE_SCOPES); undefined: only `scope`
   * counts.
   */
  readonly roleMapping: RoleMapping | undefined;
  /** False with TOKEN_SCOPE_CLAIM=off: a token's own `scope` claim grants nothing, its roles alone do. */
  readonly scopeClaim: boolean;
  /**
   * Sign-in for the pages (/, /admin, /dashboard) with OpenID Connect: OIDC_ISSUER and OIDC_CLIENT_ID; undefined: none.
   */
  readonly signIn: PageSignIn | undefined;
  /**
   * Which key verifies tokens: exactly one of JWT_SECRET (or, outside production, the development secret),
   * JWT_PUBLIC_KEY_FILE, JWT_JWKS_URL.
   */
  readonly jwtKey: JwtKeySource;
  readonly logLevel: LogLevel;
  readonly docsEnabled: boolean;
  readonly compressionEnabled: boolean;
  /** False when METRICS_ENABLED=false, and in production when neither METRICS_PORT nor METRICS_TOKEN is set. */
  readonly metricsEnabled: boolean;
  /** True when metrics are off only because production has no METRICS_PORT or METRICS_TOKEN to guard them. */
  readonly metricsUnguarded: boolean;
  /** Serve /metrics on this port instead of PORT; undefined: on PORT. */
  readonly metricsPort: number | undefined;
  /** When set, a scrape of /metrics needs `Authorization: Bearer <token>`. */
  readonly metricsToken: string | undefined;
  /** Browser origins allowed to call /api/v1 with CORS; empty: CORS is off. */
  readonly corsOrigins: readonly string[];
  readonly rateLimits: RateLimits;
  readonly trustProxy: TrustProxy;
  /** Signs page cursors; undefined: a random key of this process. */
  readonly cursorSecret: string | undefined;
  /** PUBLIC_BASE_URL without its trailing slash; undefined: links are built on a valid Host. */
  readonly publicBaseUrl: string | undefined;
  readonly httpTimeouts: HttpTimeouts;
  /** When service starts, "HH:MM": an imported menu's meals are served at this time of their day. */
  readonly serviceStart: string;
  /** The IANA time zone the `default` canteen is created in (every other canteen carries its own). */
  readonly timeZone: string;
  /** Whether URLs the service calls (menu feeds) may reach loopback, private and other non-public addresses. */
  readonly outboundAllowPrivateNetworks: boolean;
  /** The first retry of a failed feed fetch waits up to this; each further one twice as long (with jitter). */
  readonly feedRetryBaseMs: number;
  /** How often the scheduler looks for feeds that are due; 0 turns it off (fetches then run only when asked). */
  readonly feedCheckIntervalS: number;
  /** How many days the audit trail keeps an entry; a daily job deletes the older ones. */
  readonly auditRetentionDays: number;
  /** How scheduled feed runs share the network: fetches at once, per host, and the deadlines (see docs/feeds.md). */
  readonly feedRuns: {
    readonly concurrency: number;
    readonly perHost: number;
    readonly fetchDeadlineMs: number;
    readonly runDeadlineMs: number;
  };
  readonly menuCaching: MenuCachingOptions;
  /**
   * Live statistics streams (GET /api/v1/live) this instance holds open at once, in all, per client address and per
   * IPv6 /56; the (canteen, day) channels they follow, in all and per address; and how long one stream lasts.
   */
  readonly live: {
    readonly maxStreams: number;
    readonly maxStreamsPerAddress: number;
    readonly maxStreamsPerIpv6Slash56: number;
    readonly maxChannels: number;
    readonly maxChannelsPerAddress: number;
    readonly maxLifetimeMs: number;
  };
  /** The prior (pseudo-votes per star) and confidence z of the ranking scores. */
  readonly rankingSettings: RankingSettings;
  /** The nominal wait after a webhook delivery's first failed attempt; it doubles with each further one, up to 6 h. */
  readonly webhookRetryBaseMs: number;
  /** Time for one attempt to deliver a webhook. */
  readonly webhookTimeoutMs: number;
  /** The longest wait between two delivery passes of this instance; 0: this instance delivers nothing. */
  readonly webhookPollMs: number;
  /** Web Push (WEB_PUSH_PUBLIC_KEY, WEB_PUSH_PRIVATE_KEY, WEB_PUSH_SUBJECT); undefined: off. */
  readonly webPush: WebPushConfig | undefined;
  /** When the "favourites today" digest goes out on each canteen's clock (PUSH_DIGEST_TIME, `HH:MM`). */
  readonly pushDigestTime: string;
  readonly pushPollMs: number;
  /** Attempts under way at once to one endpoint in this instance. */
  readonly webhookMaxInFlightPerEndpoint: number;
  /** How long an endpoint whose attempt timed out gets no attempt (doubling per timeout in a row, up to 15 min). */
  readonly webhookTimeoutBackoffMs: number;
}

export { ConfigError, type JwtKeySource };

export interface Setting<T> {
  readonly description: string;
  /** The default as it would be written in the environment; undefined: unset. */
  readonly default: string | undefined;
  readonly parse: (raw: string, name: string) => T;
}

const minSecretBytes = 32;
const logLevels: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** Known to everyone: only for a first look on a developer's machine; production refuses to start without a secret. */
export const developmentJwtSecret = 'development-only-secret-never-use-in-production!';

export const settings = {
  NODE_ENV: {
    description: '`production` refuses a missing or short `JWT_SECRET` and never seeds demo data',
    default: 'development',
    parse: (raw) => raw,
  },
  PORT: { description: 'TCP port (0 picks a free one)', default: '3000', parse: integerIn(0, 65535) },
  HOST: { description: 'Address to listen on', default: '127.0.0.1', parse: nonEmpty },
  DATABASE_URL: {
    description:
      '`sqlite:<path>` (folder created if missing), `postgres://user:password@host:port/database` (or `postgresql://`; shared by many instances) or `memory:` (lost on exit)',
    default: 'sqlite:./data/meals.db',
    parse: databaseUrl,
  },
  DATABASE_CREATE: {
    description:
      '`1`: in production, create a missing SQLite database file (without it, or `pnpm db:init` first, the server refuses to start on a missing file: an unmounted volume must not become an empty service); outside production it is always created',
    default: '0',
    parse: flag,
  },
  SQLITE_SYNCHRONOUS: {
    description: '`normal`: every acknowledged write survives a process crash; `full`: also a power loss',
    default: 'normal',
    parse: oneOf(['normal', 'full'] as const),
  },
  POSTGRES_POOL_SIZE: {
    description: 'PostgreSQL connections per instance (1 to 100); N instances hold up to N times as many',
    default: '10',
    parse: integerIn(1, 100),
  },
  DATABASE_LISTEN_URL: {
    description:
      "PostgreSQL only: where each instance holds the one extra connection (beside the pool) on which it LISTENs for the other instances' changes. It must reach PostgreSQL directly (or through session pooling): set it when `DATABASE_URL` goes through a transaction-pooling proxy such as PgBouncer in `transaction` mode, which cannot keep a LISTEN. Unset: `DATABASE_URL`",
    default: undefined,
    parse: postgresUrl,
  },
  DATABASE_POOL_MODE: {
    description:
      'PostgreSQL only: `session` when `DATABASE_URL` reaches PostgreSQL directly (or through a session pooler); `transaction` when it goes through a transaction-pooling proxy such as PgBouncer in `transaction` mode: no startup parameters are sent (the statement timeout is set with `SET LOCAL` in each transaction), and `DATABASE_LISTEN_URL` is then required (a direct connection, which the migrations use too unless `DATABASE_MIGRATION_URL` is set)',
    default: 'session',
    parse: oneOf(['session', 'transaction'] as const),
  },
  DATABASE_POOL_QUEUE_TIMEOUT_MS: {
    description:
      'PostgreSQL only: a request that finds every pooled connection busy waits this long for one (or for a new one to open), then answers 503 `storage_unavailable` with `Retry-After`',
    default: '2000',
    parse: integerIn(1, 600_000),
  },
  DATABASE_STATEMENT_TIMEOUT_MS: {
    description:
      'PostgreSQL only: a statement running longer is cancelled by the server and its request answers 503 `storage_unavailable` (migrations have no limit); 0: no limit',
    default: '10000',
    parse: integerIn(0, 3_600_000),
  },
  DATABASE_MIGRATION_URL: {
    description:
      'PostgreSQL only: where the migrations run at start (they hold a session-level advisory lock, so a direct connection, not a transaction pooler). Unset: `DATABASE_LISTEN_URL` in `transaction` pool mode, else `DATABASE_URL`',
    default: undefined,
    parse: postgresUrl,
  },
  DATABASE_CONNECT_TIMEOUT_S: {
    description:
      'PostgreSQL only: a start that cannot reach the database tries again with backoff for this many seconds (meanwhile `/healthz` answers and `/readyz` says why it is not ready), then ends with one line naming the database; a refused login or a missing database ends it at once; `0`: one try',
    default: '60',
    parse: integerIn(0, 3600),
  },
  RATE_LIMIT_STORE: {
    description:
      "`database`: on PostgreSQL the rate limits count every instance's requests in one shared count (an unlogged table; while it cannot be reached each instance counts on its own), on SQLite and `memory:` in the process (one instance); `memory`: every instance counts on its own (N instances allow N times the rate)",
    default: 'database',
    parse: oneOf(['database', 'memory'] as const),
  },
  JWT_SECRET: {
    description:
      'HS256 secret, at least 32 bytes; in production this, `JWT_PUBLIC_KEY_FILE` or `JWT_JWKS_URL` is required (none of them outside production: a public development secret)',
    default: undefined,
    parse: secret,
  },
  JWT_PUBLIC_KEY_FILE: {
    description:
      'PEM public key file instead of a secret: an RSA key (2048 bits or more) verifies RS256 only, an EC P-256 key ES256 only',
    default: undefined,
    parse: nonEmpty,
  },
  JWT_JWKS_URL: {
    description:
      "JWKS endpoint instead of a secret (https in production): RS256/ES256 keys chosen by the token's `kid`; needs `JWT_ISSUER`",
    default: undefined,
    parse: httpUrl,
  },
  JWT_JWKS_COOLDOWN_S: {
    description: 'After a JWKS fetch (or a failed one), seconds before an unknown `kid` may cause another',
    default: '30',
    parse: integerIn(1, 3600),
  },
  JWT_ISSUER: { description: 'When set, tokens must carry exactly this `iss`', default: undefined, parse: nonEmpty },
  JWT_AUDIENCE: { description: 'When set, tokens must carry this `aud`', default: undefined, parse: nonEmpty },
  JWT_CLOCK_TOLERANCE_S: {
    description: 'Leeway for `exp` and `nbf`, in seconds (0 to 30)',
    default: '5',
    parse: integerIn(0, 30),
  },
  TOKEN_ROLES_CLAIM: {
    description:
      "Where tokens carry the identity provider's roles: dotted claim paths separated by commas (e.g. `realm_access.roles,roles,permissions`), each holding an array or a space-separated string; needs `TOKEN_ROLE_SCOPES`. The `scope` claim counts as well",
    default: undefined,
    parse: roleClaimPaths,
  },
  TOKEN_SCOPE_CLAIM: {
    description:
      "`scope`: a token's space-separated `scope` claim grants scopes, besides its roles; `off`: only its roles do (`TOKEN_ROLES_CLAIM`, `TOKEN_ROLE_SCOPES`), for an identity provider that hands out any scope a client asks for",
    default: 'scope',
    parse: oneOf(['scope', 'off'] as const),
  },
  TOKEN_ROLE_SCOPES: {
    description:
      'Which scopes each role grants: `role=scope,scope;role=scope` (e.g. `canteen-admin=meals:write,meals:read-reports;manager=meals:manage;kitchen=meals:kitchen`); scopes are `meals:write`, `meals:manage`, `meals:read-reports`, `meals:kitchen`; roles not named grant nothing. A token role written `ROLE@CANTEEN_ID` (e.g. `kitchen@mensa-nord`) grants the scopes of ROLE at that canteen only, a role without `@` at every canteen; a canteen that does not exist grants nothing',
    default: undefined,
    parse: roleScopes,
  },
  OIDC_ISSUER: {
    description:
      "The identity provider the pages (`/`, `/admin` and `/dashboard`) sign in with (OpenID Connect, authorization code with PKCE; its discovery at `/.well-known/openid-configuration`): its issuer URL, https in production; needs `OIDC_CLIENT_ID`. The API verifies the tokens as any others: set `JWT_JWKS_URL` and `JWT_ISSUER` to the same issuer's (see docs/identity-providers.md). Unset: the pages offer to paste a token",
    default: undefined,
    parse: (raw, name) => {
      httpUrl(raw, name);
      return raw.trim();
    },
  },
  OIDC_CLIENT_ID: {
    description:
      "The pages' client at the identity provider (a public client, no secret; redirect URIs `https://<host>/`, `https://<host>/admin` and `https://<host>/dashboard`); needs `OIDC_ISSUER`",
    default: undefined,
    parse: nonEmpty,
  },
  OIDC_SCOPES: {
    description:
      'The scopes the pages ask the identity provider for, separated by spaces, `openid` among them (add `offline_access` where the provider gives public clients refresh tokens only with it)',
    default: 'openid profile',
    parse: oidcScopes,
  },
  OIDC_AUDIENCE: {
    description:
      "The API the pages' access tokens are for, sent as `audience` (Auth0), and as `resource` (RFC 8707) when it is an absolute URI; the same as `JWT_AUDIENCE` where the provider needs it asked for. Unset: none sent",
    default: undefined,
    parse: nonEmpty,
  },
  JWT_MAX_LIFETIME_HOURS: {
    description:
      'A token whose `exp` lies further ahead than this (1 to 8760 hours), or that has no `exp`, is refused; `pnpm issue-token` mints no longer-lived one',
    default: '24',
    parse: integerIn(1, 8760),
  },
  LOG_LEVEL: {
    description: 'pino level: `fatal`, `error`, `warn`, `info`, `debug` (adds a line per request), `trace`, `silent`',
    default: 'info',
    parse: oneOf(logLevels),
  },
  DOCS_ENABLED: {
    description: '`false` removes the OpenAPI document (`/openapi.json`) and Swagger UI (`/docs`)',
    default: 'true',
    parse: boolean,
  },
  COMPRESSION_ENABLED: {
    description:
      '`false`: answers are never compressed (a proxy in front compresses them); `true`: JSON and text of 1 KB and more are sent with brotli or gzip to a client whose `Accept-Encoding` takes one',
    default: 'true',
    parse: boolean,
  },
  METRICS_ENABLED: {
    description:
      '`false` removes `/metrics` and stops collecting metrics; in production metrics need `METRICS_PORT` or `METRICS_TOKEN` too (without either they are off)',
    default: 'true',
    parse: boolean,
  },
  RATE_LIMIT_USER_PER_MIN: {
    description: 'Requests per minute per user (the verified `sub`) on /api/v1; 0 turns the limit off',
    default: '120',
    parse: integerIn(0, 1_000_000),
  },
  RATE_LIMIT_IP_PER_MIN: {
    description: 'Requests per minute per client address, for requests without a valid token; 0 turns the limit off',
    default: '600',
    parse: integerIn(0, 1_000_000),
  },
  PUBLIC_BASE_URL: {
    description:
      "The service's public address as clients reach it (e.g. `https://meals.example.org`, a path allowed, no query): the absolute links of its answers (OpenMensa v2's paging `Link`) are built on it. Unset: on the request's `Host` when it is a valid host name (else the links are relative)",
    default: undefined,
    parse: publicBaseUrl,
  },
  TRUST_PROXY: {
    description:
      'Who may name the client address in X-Forwarded-For: `false`, `true`, a hop count, or addresses/CIDRs separated by commas',
    default: 'false',
    parse: trustProxy,
  },
  CORS_ORIGINS: {
    description:
      'Browser origins allowed to call /api/v1 (CORS), exact and separated by commas, e.g. `https://app.example.com`; unset: none',
    default: undefined,
    parse: corsOrigins,
  },
  CURSOR_SECRET: {
    description:
      "Signs the page cursors (`next_cursor`), at least 32 bytes; give every instance of one PostgreSQL deployment the same one so that each accepts the others' cursors. Unset: derived from `JWT_SECRET` when tokens are verified with a shared secret (instances sharing it accept each other's cursors), else a random key per process (cursors end with it)",
    default: undefined,
    parse: secret,
  },
  HTTP_REQUEST_TIMEOUT_MS: {
    description: 'The whole request (headers and body) must arrive within this; 0: no limit',
    default: String(defaultHttpTimeouts.requestMs),
    parse: integerIn(0, 600_000),
  },
  HTTP_HEADERS_TIMEOUT_MS: {
    description:
      'The request headers must arrive within this (drops slowloris clients); at most `HTTP_REQUEST_TIMEOUT_MS`',
    default: String(defaultHttpTimeouts.headersMs),
    parse: integerIn(1, 600_000),
  },
  HTTP_KEEP_ALIVE_TIMEOUT_MS: {
    description: 'An idle keep-alive connection is closed after this',
    default: String(defaultHttpTimeouts.keepAliveMs),
    parse: integerIn(1, 600_000),
  },
  HTTP_CONNECTION_TIMEOUT_MS: {
    description:
      'A socket without any traffic is closed after this (0: never; else longer than the keep-alive timeout)',
    default: String(defaultHttpTimeouts.connectionIdleMs),
    parse: integerIn(0, 3_600_000),
  },
  METRICS_PORT: {
    description: 'When set, `/metrics` is served on this port (on HOST) instead of PORT',
    default: undefined,
    parse: integerIn(0, 65535),
  },
  METRICS_TOKEN: {
    description: 'When set (16 characters or more), `/metrics` needs `Authorization: Bearer <token>`',
    default: undefined,
    parse: metricsToken,
  },
  SERVICE_START: {
    description: 'Time of day (`HH:MM`) at which an imported menu day is served',
    default: '11:00',
    parse: timeOfDay,
  },
  TZ_NAME: {
    description:
      'IANA time zone of the `default` canteen, set when a database is created or migrated to canteens (each other canteen has its own): the days of its menus are days on its clocks',
    default: 'Europe/Berlin',
    parse: timeZone,
  },
  FEED_RETRY_BASE_MS: {
    description:
      'Feed fetches retry network errors and 5xx at most 3 times, waiting up to this, then twice and four times as long (full jitter); 4xx is not retried',
    default: '2000',
    parse: integerIn(0, 600_000),
  },
  AUDIT_RETENTION_DAYS: {
    description:
      'The audit trail (who changed what with a staff scope) keeps each entry this many days; a daily job deletes the older ones',
    default: '365',
    parse: integerIn(1, 36_500),
  },
  FEED_CHECK_INTERVAL_S: {
    description:
      'Every this many seconds the service fetches the canteen feeds whose schedule has fired (a feed never fetched at once); `0` turns the scheduler off',
    default: '30',
    parse: integerIn(0, 3600),
  },
  FEED_CONCURRENCY: {
    description:
      "The feed scheduler fetches at most this many feeds at once (across its checks), so one hanging host does not delay the other canteens' feeds",
    default: '4',
    parse: integerIn(1, 64),
  },
  FEED_CONCURRENCY_PER_HOST: {
    description: 'Of those, at most this many from one host',
    default: '1',
    parse: integerIn(1, 16),
  },
  FEED_FETCH_DEADLINE_MS: {
    description:
      'One feed fetch, its retries included, ends within this (a manual fetch then answers in time); less than `HTTP_CONNECTION_TIMEOUT_MS`',
    default: '90000',
    parse: integerIn(100, 600_000),
  },
  FEED_RUN_DEADLINE_S: {
    description:
      'A scheduled feed fetch still under way this long after its start is ended by the next check (so within `FEED_CHECK_INTERVAL_S`); time a feed waits for a slot does not count (it is claimed when its fetch starts)',
    default: '300',
    parse: integerIn(1, 3600),
  },
  OUTBOUND_ALLOW_PRIVATE_NETWORKS: {
    description:
      '`1`: URLs the service calls (canteen feeds, `pnpm meals:import <url>`, webhook endpoints) may resolve to loopback, private, link-local and other non-public addresses; `0` refuses them, checked on the address connected to',
    default: '0',
    parse: flag,
  },
  MENU_MAX_AGE_S: {
    description:
      'Public menu answers (`GET /api/v1/meals?canteen=&date=` without a token) carry `Cache-Control: public, max-age=` this: how long browsers and CDNs may serve them without asking',
    default: '5',
    parse: integerIn(0, 86_400),
  },
  MENU_STALE_WHILE_REVALIDATE_S: {
    description:
      '…and `stale-while-revalidate=` this: how much longer a cache may serve one while it asks again in the background',
    default: '30',
    parse: integerIn(0, 86_400),
  },
  MENU_CACHE_ENTRIES: {
    description:
      'Public menu answers (canteen and days) kept serialized in each instance; `0` reads and serializes every answer afresh',
    default: '1000',
    parse: integerIn(0, 1_000_000),
  },
  MENU_RATINGS_MAX_AGE_MS: {
    description:
      'A kept menu answer may be served this long after a rating changed it, on this instance or (told through PostgreSQL `LISTEN`) on another (its statistics are never older); `0` drops it at once',
    default: '1000',
    parse: integerIn(0, 60_000),
  },
  MENU_CACHE_TTL_MS: {
    description:
      'No menu answer is kept longer: how late an instance shows the writes of command-line tools, and of other instances sharing a PostgreSQL database whose notification it missed',
    default: '4000',
    parse: integerIn(0, 3_600_000),
  },
  LIVE_MAX_STREAMS: {
    description:
      'Live statistics streams (`GET /api/v1/live`) one instance holds open; one more answers 503 `service_unavailable`',
    default: String(defaultLiveOptions.maxStreams),
    parse: integerIn(1, 1_000_000),
  },
  LIVE_MAX_STREAMS_PER_ADDRESS: {
    description:
      'Live statistics streams one client address (see `TRUST_PROXY`; IPv6 counted by its /64) may hold open on one instance; one more answers 429 `rate_limited`',
    default: String(defaultLiveOptions.maxStreamsPerAddress),
    parse: integerIn(1, 1_000_000),
  },
  LIVE_MAX_STREAMS_PER_IPV6_56: {
    description:
      'Live statistics streams the addresses of one IPv6 /56 network may hold open on one instance; one more answers 429 `rate_limited`',
    default: String(defaultLiveOptions.maxStreamsPerIpv6Slash56),
    parse: integerIn(1, 1_000_000),
  },
  LIVE_MAX_CHANNELS: {
    description:
      'Distinct canteen days one instance follows live (each is read again when the menus change); a stream that would add one more answers 503 `service_unavailable`',
    default: String(defaultLiveOptions.maxChannels),
    parse: integerIn(1, 1_000_000),
  },
  LIVE_MAX_CHANNELS_PER_ADDRESS: {
    description:
      'Distinct canteen days the live streams of one client address may follow on one instance; one more answers 429 `rate_limited`',
    default: String(defaultLiveOptions.maxChannelsPerAddress),
    parse: integerIn(1, 1_000_000),
  },
  LIVE_MAX_STREAM_LIFETIME_S: {
    description:
      'A live statistics stream is ended after at most this long (less up to a tenth, at random); its client reconnects with `Last-Event-ID` and resumes',
    default: String(defaultLiveOptions.maxLifetimeMs / 1000),
    parse: integerIn(60, 86_400),
  },
  RANKING_PRIOR: {
    description:
      'Rankings (`GET /api/v1/rankings`) score every meal and dish as if it also held these votes for 1 to 5 stars: five positive numbers separated by commas; larger ones make each real vote weigh less (one 5-star vote is not a perfect meal)',
    default: '1,1,1,1,1',
    parse: rankingPrior,
  },
  RANKING_Z: {
    description:
      '…and place the score this many standard deviations below the expected rating (0 to 10): `1.65` is a one-sided 95 % lower bound, `0` the expected rating itself; higher needs more votes before a meal climbs',
    default: '1.65',
    parse: decimalIn(0, 10),
  },
  WEBHOOK_RETRY_BASE_MS: {
    description:
      'A failed webhook delivery is retried after about this long (half to one and a half times, at random), then after twice and four times as long and so on, each wait at most 6 h, for up to 3 days after its first attempt',
    default: String(defaultWebhookRetryBaseMs),
    parse: integerIn(1, 3_600_000),
  },
  WEBHOOK_TIMEOUT_MS: {
    description:
      'One attempt to deliver a webhook (connection, request, answer) must end within this, else it failed and is retried',
    default: String(defaultWebhookTimeoutMs),
    parse: integerIn(100, 120_000),
  },
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: {
    description:
      'Attempts one instance has under way at once to one webhook endpoint (of 8 in all): a receiver that hangs holds no more than these, the others keep receiving',
    default: String(defaultDeliverySettings.perEndpoint),
    parse: integerIn(1, 8),
  },
  WEBHOOK_TIMEOUT_BACKOFF_MS: {
    description:
      'An endpoint whose delivery attempt timed out gets no attempt from this instance for this long, twice as long after each further timeout in a row (at most 15 min); any answer ends it',
    default: String(defaultDeliverySettings.timeoutBackoffMs),
    parse: integerIn(1000, 900_000),
  },
  WEBHOOK_POLL_MS: {
    description:
      "Each instance delivers webhooks right after its own menu changes, when a retry falls due, and at least this often (other instances' events, recovery after a crash); `0`: this instance delivers none (another one must)",
    default: '5000',
    parse: integerIn(0, 3_600_000),
  },
  WEB_PUSH_PUBLIC_KEY: {
    description:
      'The VAPID public key (base64url, as `pnpm push-keys` prints it): with `WEB_PUSH_PRIVATE_KEY` and `WEB_PUSH_SUBJECT` it turns Web Push notifications on (all three or none); unset: push is off (see docs/notifications.md)',
    default: undefined,
    parse: vapidKey(65),
  },
  WEB_PUSH_PRIVATE_KEY: {
    description: 'The VAPID private key (base64url, 32 bytes), kept secret',
    default: undefined,
    parse: vapidKey(32),
  },
  WEB_PUSH_SUBJECT: {
    description: 'Who sends the notifications, for the push services: a `mailto:` or `https:` URL',
    default: undefined,
    parse: vapidSubject,
  },
  PUSH_DIGEST_TIME: {
    description:
      'Time of day (`HH:MM`, on each canteen\'s clock) of the "favourites today" notification: sent at the first check at or after it, dropped when it cannot start within 2 hours',
    default: '10:30',
    parse: timeOfDay,
  },
  PUSH_POLL_MS: {
    description:
      'Each instance checks for due digests and sends waiting notifications at least this often; `0`: this instance sends none (another one must)',
    default: '15000',
    parse: integerIn(0, 3_600_000),
  },
} satisfies Record<string, Setting<unknown>>;

/** The VAPID key pair and subject that turn Web Push on. */
export interface WebPushConfig {
  readonly publicKey: string;
  readonly privateKey: string;
  readonly subject: string;
}

/** A VAPID key: base64url of `bytes` bytes (65: an uncompressed P-256 point; 32: its private scalar). */
function vapidKey(bytes: number) {
  return (raw: string, name: string): string => {
    const key = raw.trim();
    const decoded = /^[A-Za-z0-9_-]+$/.test(key) ? Buffer.from(key, 'base64url') : undefined;
    if (decoded === undefined || decoded.length !== bytes || (bytes === 65 && decoded[0] !== 4)) {
      throw new ConfigError(
        `${name} must be a base64url VAPID key of ${bytes} bytes, as \`pnpm push-keys\` prints it.`,
      );
    }
    return key;
  };
}

function vapidSubject(raw: string, name: string): string {
  const subject = raw.trim();
  if (!/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(subject))
    throw new ConfigError(
      `${name} must be a mailto: or https: URL (who sends the notifications), e.g. mailto:ops@example.edu.`,
    );
  return subject;
}

/** All three or none: a half-configured push is an operator's mistake, said in one line naming what is missing. */
function webPushOf(given: {
  publicKey: string | undefined;
  privateKey: string | undefined;
  subject: string | undefined;
}): WebPushConfig | undefined {
  const names = {
    publicKey: 'WEB_PUSH_PUBLIC_KEY',
    privateKey: 'WEB_PUSH_PRIVATE_KEY',
    subject: 'WEB_PUSH_SUBJECT',
  } as const;
  const missing = (Object.keys(names) as (keyof typeof names)[])
    .filter((key) => given[key] === undefined)
    .map((key) => names[key]);
  if (missing.length === 3) return undefined;
  if (missing.length > 0)
    throw new ConfigError(
      `Web Push needs all three of WEB_PUSH_PUBLIC_KEY, WEB_PUSH_PRIVATE_KEY and WEB_PUSH_SUBJECT: ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} missing (\`pnpm push-keys\` prints a key pair).`,
    );
  return { publicKey: given.publicKey!, privateKey: given.privateKey!, subject: given.subject! };
}

/** Reads every setting; throws one ConfigError that names every invalid variable, not just the first. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const problems: string[] = [];
  const read = <T>(name: keyof typeof settings, setting: Setting<T>): T | undefined => {
    // An empty variable counts as unset, so `PORT=` means the default and not an error or NaN.
    const given = env[name];
    const raw = given === undefined || given === '' ? setting.default : given;
    try {
      return raw === undefined ? undefined : setting.parse(raw, name);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
      return undefined;
    }
  };

  /** A check across settings: its ConfigError joins the others. */
  const checked = <T>(check: () => T): T | undefined => {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
      return undefined;
    }
  };
  const given = (name: keyof typeof settings) => (env[name] ?? '') !== '';

  const production = read('NODE_ENV', settings.NODE_ENV) === 'production';
  const givenSecret = read('JWT_SECRET', settings.JWT_SECRET);
  const jwtIssuer = read('JWT_ISSUER', settings.JWT_ISSUER);
  const publicKeyFile = read('JWT_PUBLIC_KEY_FILE', settings.JWT_PUBLIC_KEY_FILE);
  const jwksUrl = read('JWT_JWKS_URL', settings.JWT_JWKS_URL);
  const jwksCooldownS = read('JWT_JWKS_COOLDOWN_S', settings.JWT_JWKS_COOLDOWN_S);
  const jwtKey = checked(() =>
    jwtKeySource({
      production,
      present: {
        secret: given('JWT_SECRET'),
        publicKeyFile: given('JWT_PUBLIC_KEY_FILE'),
        jwksUrl: given('JWT_JWKS_URL'),
      },
      jwtIssuer,
      publicKeyFile,
      jwksUrl,
      jwksCooldownS: jwksCooldownS ?? 30,
    }),
  );
  const port = read('PORT', settings.PORT);
  const metricsPort = read('METRICS_PORT', settings.METRICS_PORT);
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
    problems.push(`METRICS_PORT must differ from PORT (both are ${port}); leave it unset to serve /metrics on PORT.`);
  }
  const feedFetchDeadlineMs = read('FEED_FETCH_DEADLINE_MS', settings.FEED_FETCH_DEADLINE_MS);
  // Read where the HTTP timeouts are read; here only compared, so a bad value is reported once.
  const connectionIdleMs = Number(env.HTTP_CONNECTION_TIMEOUT_MS || settings.HTTP_CONNECTION_TIMEOUT_MS.default);
  if (feedFetchDeadlineMs !== undefined && connectionIdleMs > 0 && feedFetchDeadlineMs >= connectionIdleMs) {
    // A manual fetch answers when its fetch ends: after the idle connection is closed, the answer would be lost.
    problems.push(
      `FEED_FETCH_DEADLINE_MS (${feedFetchDeadlineMs}) must be less than HTTP_CONNECTION_TIMEOUT_MS (${connectionIdleMs}), or a manual feed fetch loses its answer.`,
    );
  }
  const databaseListenUrl = read('DATABASE_LISTEN_URL', settings.DATABASE_LISTEN_URL);
  const poolMode = read('DATABASE_POOL_MODE', settings.DATABASE_POOL_MODE)!;
  if (poolMode === 'transaction' && databaseListenUrl === undefined) {
    // LISTEN and the migrations' advisory lock need a session of their own, which a transaction pooler does not keep.
    problems.push(
      'DATABASE_POOL_MODE=transaction needs DATABASE_LISTEN_URL: a direct connection to PostgreSQL for LISTEN and the migrations.',
    );
  }
  const metricsTokenValue = read('METRICS_TOKEN', settings.METRICS_TOKEN);
  const metricsWanted = read('METRICS_ENABLED', settings.METRICS_ENABLED)!;
  // Fail closed: in production, metrics that would be open to whoever reaches PORT are not served at all.
  const metricsUnguarded = metricsWanted && production && metricsPort === undefined && metricsTokenValue === undefined;
  const config: Config = {
    production,
    port: port!,
    host: read('HOST', settings.HOST)!,
    database: read('DATABASE_URL', settings.DATABASE_URL)!,
    databaseCreate: read('DATABASE_CREATE', settings.DATABASE_CREATE)!,
    sqliteSynchronous: read('SQLITE_SYNCHRONOUS', settings.SQLITE_SYNCHRONOUS)!,
    postgresPoolSize: read('POSTGRES_POOL_SIZE', settings.POSTGRES_POOL_SIZE)!,
    databaseListenUrl,
    postgres: {
      poolMode,
      poolQueueTimeoutMs: read('DATABASE_POOL_QUEUE_TIMEOUT_MS', settings.DATABASE_POOL_QUEUE_TIMEOUT_MS)!,
      statementTimeoutMs: read('DATABASE_STATEMENT_TIMEOUT_MS', settings.DATABASE_STATEMENT_TIMEOUT_MS)!,
      migrationUrl:
        read('DATABASE_MIGRATION_URL', settings.DATABASE_MIGRATION_URL) ??
        (poolMode === 'transaction' ? databaseListenUrl : undefined),
    },
    databaseConnectTimeoutMs: read('DATABASE_CONNECT_TIMEOUT_S', settings.DATABASE_CONNECT_TIMEOUT_S)! * 1000,
    rateLimitStore: read('RATE_LIMIT_STORE', settings.RATE_LIMIT_STORE)!,
    jwtSecret: givenSecret ?? developmentJwtSecret,
    jwtSecretIsDevelopmentDefault: givenSecret === undefined && jwtKey?.kind === 'secret',
    jwtIssuer,
    jwtAudience: read('JWT_AUDIENCE', settings.JWT_AUDIENCE),
    jwtClockToleranceMs: read('JWT_CLOCK_TOLERANCE_S', settings.JWT_CLOCK_TOLERANCE_S)! * 1000,
    jwtMaxLifetimeMs: read('JWT_MAX_LIFETIME_HOURS', settings.JWT_MAX_LIFETIME_HOURS)! * 3_600_000,
    roleMapping: checked(() =>
      roleMapping(
        read('TOKEN_ROLES_CLAIM', settings.TOKEN_ROLES_CLAIM),
        read('TOKEN_ROLE_SCOPES', settings.TOKEN_ROLE_SCOPES),
      ),
    ),
    scopeClaim:
      checked(() =>
        scopeClaim(
          read('TOKEN_SCOPE_CLAIM', settings.TOKEN_SCOPE_CLAIM)!,
          read('TOKEN_ROLES_CLAIM', settings.TOKEN_ROLES_CLAIM),
        ),
      ) ?? true,
    signIn: checked(() =>
      pageSignIn({
        production,
        issuer: read('OIDC_ISSUER', settings.OIDC_ISSUER),
        clientId: read('OIDC_CLIENT_ID', settings.OIDC_CLIENT_ID),
        scopes: read('OIDC_SCOPES', settings.OIDC_SCOPES)!,
        audience: read('OIDC_AUDIENCE', settings.OIDC_AUDIENCE),
      }),
    ),
    jwtKey: jwtKey!,
    logLevel: read('LOG_LEVEL', settings.LOG_LEVEL)!,
    docsEnabled: read('DOCS_ENABLED', settings.DOCS_ENABLED)!,
    compressionEnabled: read('COMPRESSION_ENABLED', settings.COMPRESSION_ENABLED)!,
    metricsEnabled: metricsWanted && !metricsUnguarded,
    metricsUnguarded,
    metricsPort,
    metricsToken: metricsTokenValue,
    corsOrigins: read('CORS_ORIGINS', settings.CORS_ORIGINS) ?? [],
    rateLimits: {
      userPerMinute: read('RATE_LIMIT_USER_PER_MIN', settings.RATE_LIMIT_USER_PER_MIN)!,
      ipPerMinute: read('RATE_LIMIT_IP_PER_MIN', settings.RATE_LIMIT_IP_PER_MIN)!,
    },
    trustProxy: read('TRUST_PROXY', settings.TRUST_PROXY)!,
    publicBaseUrl: read('PUBLIC_BASE_URL', settings.PUBLIC_BASE_URL),
    cursorSecret:
      read('CURSOR_SECRET', settings.CURSOR_SECRET) ??
      (jwtKey?.kind === 'secret' ? cursorSecretOf(givenSecret ?? developmentJwtSecret) : undefined),
    httpTimeouts: checked(() =>
      httpTimeouts({
        requestMs: read('HTTP_REQUEST_TIMEOUT_MS', settings.HTTP_REQUEST_TIMEOUT_MS)!,
        headersMs: read('HTTP_HEADERS_TIMEOUT_MS', settings.HTTP_HEADERS_TIMEOUT_MS)!,
        keepAliveMs: read('HTTP_KEEP_ALIVE_TIMEOUT_MS', settings.HTTP_KEEP_ALIVE_TIMEOUT_MS)!,
        connectionIdleMs: read('HTTP_CONNECTION_TIMEOUT_MS', settings.HTTP_CONNECTION_TIMEOUT_MS)!,
      }),
    )!,
    serviceStart: read('SERVICE_START', settings.SERVICE_START)!,
    timeZone: read('TZ_NAME', settings.TZ_NAME)!,
    outboundAllowPrivateNetworks: read('OUTBOUND_ALLOW_PRIVATE_NETWORKS', settings.OUTBOUND_ALLOW_PRIVATE_NETWORKS)!,
    feedRetryBaseMs: read('FEED_RETRY_BASE_MS', settings.FEED_RETRY_BASE_MS)!,
    feedCheckIntervalS: read('FEED_CHECK_INTERVAL_S', settings.FEED_CHECK_INTERVAL_S)!,
    auditRetentionDays: read('AUDIT_RETENTION_DAYS', settings.AUDIT_RETENTION_DAYS)!,
    feedRuns: {
      concurrency: read('FEED_CONCURRENCY', settings.FEED_CONCURRENCY)!,
      perHost: read('FEED_CONCURRENCY_PER_HOST', settings.FEED_CONCURRENCY_PER_HOST)!,
      fetchDeadlineMs: feedFetchDeadlineMs!,
      runDeadlineMs: read('FEED_RUN_DEADLINE_S', settings.FEED_RUN_DEADLINE_S)! * 1000,
    },
    menuCaching: {
      maxAgeS: read('MENU_MAX_AGE_S', settings.MENU_MAX_AGE_S)!,
      staleWhileRevalidateS: read('MENU_STALE_WHILE_REVALIDATE_S', settings.MENU_STALE_WHILE_REVALIDATE_S)!,
      entries: read('MENU_CACHE_ENTRIES', settings.MENU_CACHE_ENTRIES)!,
      ratingsMaxAgeMs: read('MENU_RATINGS_MAX_AGE_MS', settings.MENU_RATINGS_MAX_AGE_MS)!,
      ttlMs: read('MENU_CACHE_TTL_MS', settings.MENU_CACHE_TTL_MS)!,
    },
    live: {
      maxStreams: read('LIVE_MAX_STREAMS', settings.LIVE_MAX_STREAMS)!,
      maxStreamsPerAddress: read('LIVE_MAX_STREAMS_PER_ADDRESS', settings.LIVE_MAX_STREAMS_PER_ADDRESS)!,
      maxStreamsPerIpv6Slash56: read('LIVE_MAX_STREAMS_PER_IPV6_56', settings.LIVE_MAX_STREAMS_PER_IPV6_56)!,
      maxChannels: read('LIVE_MAX_CHANNELS', settings.LIVE_MAX_CHANNELS)!,
      maxChannelsPerAddress: read('LIVE_MAX_CHANNELS_PER_ADDRESS', settings.LIVE_MAX_CHANNELS_PER_ADDRESS)!,
      maxLifetimeMs: read('LIVE_MAX_STREAM_LIFETIME_S', settings.LIVE_MAX_STREAM_LIFETIME_S)! * 1000,
    },
    rankingSettings: {
      prior: read('RANKING_PRIOR', settings.RANKING_PRIOR)!,
      z: read('RANKING_Z', settings.RANKING_Z)!,
    },
    webhookRetryBaseMs: read('WEBHOOK_RETRY_BASE_MS', settings.WEBHOOK_RETRY_BASE_MS)!,
    webhookTimeoutMs: read('WEBHOOK_TIMEOUT_MS', settings.WEBHOOK_TIMEOUT_MS)!,
    webhookPollMs: read('WEBHOOK_POLL_MS', settings.WEBHOOK_POLL_MS)!,
    webhookMaxInFlightPerEndpoint: read(
      'WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT',
      settings.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
    )!,
    webhookTimeoutBackoffMs: read('WEBHOOK_TIMEOUT_BACKOFF_MS', settings.WEBHOOK_TIMEOUT_BACKOFF_MS)!,
    webPush: checked(() =>
      webPushOf({
        publicKey: read('WEB_PUSH_PUBLIC_KEY', settings.WEB_PUSH_PUBLIC_KEY),
        privateKey: read('WEB_PUSH_PRIVATE_KEY', settings.WEB_PUSH_PRIVATE_KEY),
        subject: read('WEB_PUSH_SUBJECT', settings.WEB_PUSH_SUBJECT),
      }),
    ),
    pushDigestTime: read('PUSH_DIGEST_TIME', settings.PUSH_DIGEST_TIME)!,
    pushPollMs: read('PUSH_POLL_MS', settings.PUSH_POLL_MS)!,
  };
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return config;
}

/**
 * Without CURSOR_SECRET, instances that share a JWT secret share a cursor key too: a key of its own, derived from the
 * secret (a cursor never reveals the secret, and no token verifies with the cursor key).
 */
function cursorSecretOf(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('meals page cursors v1').digest('base64url');
}

function roleClaimPaths(raw: string, name: string): string[] {
  try {
    return parseRoleClaimPaths(raw);
  } catch (error) {
    throw new ConfigError(`${name}: ${(error as Error).message}.`);
  }
}

function roleScopes(raw: string, name: string): Map<string, string[]> {
  try {
    return parseRoleScopes(raw);
  } catch (error) {
    throw new ConfigError(`${name}: ${(error as Error).message}.`);
  }
}

/** Roles count only with both settings: paths without a mapping (or the reverse) would silently grant nothing. */
function roleMapping(
  claimPaths: string[] | undefined,
  scopesByRole: Map<string, string[]> | undefined,
): RoleMapping | undefined {
  if (claimPaths === undefined && scopesByRole === undefined) return undefined;
  if (claimPaths === undefined)
    throw new ConfigError(
      'TOKEN_ROLE_SCOPES needs TOKEN_ROLES_CLAIM: say where tokens carry their roles (e.g. realm_access.roles).',
    );
  if (scopesByRole === undefined)
    throw new ConfigError(
      'TOKEN_ROLES_CLAIM needs TOKEN_ROLE_SCOPES: say which scopes each role grants (e.g. canteen-admin=meals:write).',
    );
  return { claimPaths, scopesByRole };
}

/** Without the `scope` claim, roles are the only source: without them no token could hold a scope at all. */
function scopeClaim(setting: 'scope' | 'off', roleClaimPaths: string[] | undefined): boolean {
  if (setting === 'off' && roleClaimPaths === undefined) {
    throw new ConfigError(
      'TOKEN_SCOPE_CLAIM=off needs TOKEN_ROLES_CLAIM and TOKEN_ROLE_SCOPES: without the scope claim, roles are the only source of scopes.',
    );
  }
  return setting === 'scope';
}

/**
 * The pages sign in with both settings or not at all: an issuer without a client (or the reverse) cannot sign anyone
 * in.
 */
function pageSignIn(given: {
  production: boolean;
  issuer: string | undefined;
  clientId: string | undefined;
  scopes: string;
  audience: string | undefined;
}): PageSignIn | undefined {
  const { production, issuer, clientId, scopes, audience } = given;
  if (issuer === undefined && clientId === undefined) return undefined;
  if (issuer === undefined)
    throw new ConfigError('OIDC_CLIENT_ID needs OIDC_ISSUER: the identity provider the pages sign in with.');
  if (clientId === undefined)
    throw new ConfigError("OIDC_ISSUER needs OIDC_CLIENT_ID: the pages' client at that identity provider.");
  // Whoever can alter the provider's answers on the way can hand the pages someone else's tokens.
  const url = new URL(issuer);
  if (production && url.protocol !== 'https:')
    throw new ConfigError('OIDC_ISSUER must be https when NODE_ENV=production.');
  if (url.search !== '' || url.hash !== '')
    throw new ConfigError('OIDC_ISSUER must be the issuer URL, without a query or fragment.');
  // Kept as written: ID tokens' `iss` must equal it exactly, and providers differ on a trailing slash (Auth0 has one).
  return { issuer, clientId, scopes, audience };
}

function oidcScopes(raw: string, name: string): string {
  const scopes = raw.trim().split(/\s+/);
  if (!scopes.includes('openid')) throw new ConfigError(`${name} must include openid, not "${raw}".`);
  return scopes.join(' ');
}

function nonEmpty(raw: string, name: string): string {
  if (raw.trim() === '') throw new ConfigError(`${name} must not be blank.`);
  return raw;
}

function integerIn(min: number, max: number) {
  return (raw: string, name: string): number => {
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      throw new ConfigError(`${name} must be an integer from ${min} to ${max}, not "${raw}".`);
    }
    return value;
  };
}

/** A decimal number written plainly (`1.65`, `2`, `0.5`), from `min` to `max`. */
function decimalIn(min: number, max: number) {
  return (raw: string, name: string): number => {
    const value = Number(raw);
    if (!/^\d+(\.\d+)?$/.test(raw) || value < min || value > max) {
      throw new ConfigError(`${name} must be a number from ${min} to ${max}, such as 1.65, not "${raw}".`);
    }
    return value;
  };
}

/** Five positive decimal numbers separated by commas: the pseudo-votes for 1 to 5 stars. */
function rankingPrior(raw: string, name: string): RankingSettings['prior'] {
  const counts = raw.split(',').map((part) => part.trim());
  if (counts.length !== 5 || counts.some((count) => !/^\d+(\.\d+)?$/.test(count) || !(Number(count) > 0))) {
    throw new ConfigError(
      `${name} must be five numbers above 0 separated by commas (votes for 1 to 5 stars), such as 1,1,1,1,1, not "${raw}".`,
    );
  }
  return counts.map(Number) as unknown as RankingSettings['prior'];
}

function oneOf<const T extends string>(allowed: readonly T[]) {
  return (raw: string, name: string): T => {
    const value = raw.toLowerCase() as T;
    if (!allowed.includes(value)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, not "${raw}".`);
    return value;
  };
}

function flag(raw: string, name: string): boolean {
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new ConfigError(`${name} must be 1 or 0, not "${raw}".`);
}

function boolean(raw: string, name: string): boolean {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new ConfigError(`${name} must be true or false, not "${raw}".`);
}

function secret(raw: string, name: string): string {
  if (Buffer.byteLength(raw) < minSecretBytes) {
    throw new ConfigError(`${name} must have at least ${minSecretBytes} bytes (it has ${Buffer.byteLength(raw)}).`);
  }
  return raw;
}

function timeOfDay(raw: string, name: string): string {
  if (!isLocalTime(raw)) throw new ConfigError(`${name} must be a time of day HH:MM (00:00 to 23:59), not "${raw}".`);
  return raw;
}

function timeZone(raw: string, name: string): string {
  if (!isTimeZone(raw)) throw new ConfigError(`${name} must be an IANA time zone such as Europe/Berlin, not "${raw}".`);
  return raw;
}

/** An http(s) URL with no query, fragment or credentials, written without its trailing slash. */
function publicBaseUrl(raw: string, name: string): string {
  const url = httpUrl(raw.trim(), name);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(
      `${name} must be the service's address without a query, fragment or credentials, not "${raw}".`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

function databaseUrl(raw: string, name: string): DatabaseConfig {
  if (raw === 'memory:') return { kind: 'memory' };
  if (raw.startsWith('sqlite:') && raw.length > 'sqlite:'.length)
    return { kind: 'sqlite', path: raw.slice('sqlite:'.length) };
  if (/^postgres(ql)?:\/\/./.test(raw)) return { kind: 'postgres', url: raw };
  // The value may hold a password: name the accepted forms, never echo it.
  throw new ConfigError(`${name} must be sqlite:<path>, postgres://... (or postgresql://...) or memory:.`);
}

function postgresUrl(raw: string, name: string): string {
  if (/^postgres(ql)?:\/\/./.test(raw)) return raw;
  // The value may hold a password: name the accepted forms, never echo it.
  throw new ConfigError(`${name} must be postgres://... (or postgresql://...).`);
}
