/** Every setting the server reads, each with its default and what it allows: the one configuration schema. */

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string }
  | { readonly kind: 'memory' };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  readonly production: boolean;
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  readonly sqliteSynchronous: 'normal' | 'full';
  readonly postgresPoolSize: number;
  readonly jwtSecret: string;
  /** True when no JWT_SECRET was given and the development secret stands in. */
  readonly jwtSecretIsDevelopmentDefault: boolean;
  readonly jwtIssuer: string | undefined;
  readonly jwtAudience: string | undefined;
  readonly jwtClockToleranceMs: number;
  readonly logLevel: LogLevel;
  readonly metricsEnabled: boolean;
  /** Serve /metrics on this port instead of PORT; undefined: on PORT. */
  readonly metricsPort: number | undefined;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

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
  NODE_ENV: { description: '`production` refuses a missing or short `JWT_SECRET` and never seeds demo data', default: 'development', parse: (raw) => raw },
  PORT: { description: 'TCP port (0 picks a free one)', default: '3000', parse: integerIn(0, 65535) },
  HOST: { description: 'Address to listen on', default: '127.0.0.1', parse: nonEmpty },
  DATABASE_URL: { description: '`sqlite:<path>` (folder created if missing), `postgres://user:password@host:port/database` (or `postgresql://`; shared by many instances) or `memory:` (lost on exit)', default: 'sqlite:./data/meals.db', parse: databaseUrl },
  SQLITE_SYNCHRONOUS: { description: '`normal`: every acknowledged write survives a process crash; `full`: also a power loss', default: 'normal', parse: oneOf(['normal', 'full'] as const) },
  POSTGRES_POOL_SIZE: { description: 'PostgreSQL connections per instance (1 to 100); N instances hold up to N times as many', default: '10', parse: integerIn(1, 100) },
  JWT_SECRET: { description: 'HS256 secret, at least 32 bytes; required in production (unset elsewhere: a public development secret)', default: undefined, parse: secret },
  JWT_ISSUER: { description: 'When set, tokens must carry exactly this `iss`', default: undefined, parse: nonEmpty },
  JWT_AUDIENCE: { description: 'When set, tokens must carry this `aud`', default: undefined, parse: nonEmpty },
  JWT_CLOCK_TOLERANCE_S: { description: 'Leeway for `exp` and `nbf`, in seconds (0 to 30)', default: '5', parse: integerIn(0, 30) },
  LOG_LEVEL: { description: 'pino level: `fatal`, `error`, `warn`, `info`, `debug` (adds a line per request), `trace`, `silent`', default: 'info', parse: oneOf(logLevels) },
  METRICS_ENABLED: { description: '`false` removes `/metrics` and stops collecting metrics', default: 'true', parse: boolean },
  METRICS_PORT: { description: 'When set, `/metrics` is served on this port (on HOST) instead of PORT', default: undefined, parse: integerIn(0, 65535) },
} satisfies Record<string, Setting<unknown>>;

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

  const production = read('NODE_ENV', settings.NODE_ENV) === 'production';
  const givenSecret = read('JWT_SECRET', settings.JWT_SECRET);
  if (production && (env.JWT_SECRET ?? '') === '') {
    problems.push(`JWT_SECRET is required when NODE_ENV=production (at least ${minSecretBytes} bytes).`);
  }
  const port = read('PORT', settings.PORT);
  const metricsPort = read('METRICS_PORT', settings.METRICS_PORT);
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
    problems.push(`METRICS_PORT must differ from PORT (both are ${port}); leave it unset to serve /metrics on PORT.`);
  }
  const config: Config = {
    production,
    port: port!,
    host: read('HOST', settings.HOST)!,
    database: read('DATABASE_URL', settings.DATABASE_URL)!,
    sqliteSynchronous: read('SQLITE_SYNCHRONOUS', settings.SQLITE_SYNCHRONOUS)!,
    postgresPoolSize: read('POSTGRES_POOL_SIZE', settings.POSTGRES_POOL_SIZE)!,
    jwtSecret: givenSecret ?? developmentJwtSecret,
    jwtSecretIsDevelopmentDefault: givenSecret === undefined,
    jwtIssuer: read('JWT_ISSUER', settings.JWT_ISSUER),
    jwtAudience: read('JWT_AUDIENCE', settings.JWT_AUDIENCE),
    jwtClockToleranceMs: read('JWT_CLOCK_TOLERANCE_S', settings.JWT_CLOCK_TOLERANCE_S)! * 1000,
    logLevel: read('LOG_LEVEL', settings.LOG_LEVEL)!,
    metricsEnabled: read('METRICS_ENABLED', settings.METRICS_ENABLED)!,
    metricsPort,
  };
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return config;
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

function oneOf<const T extends string>(allowed: readonly T[]) {
  return (raw: string, name: string): T => {
    const value = raw.toLowerCase() as T;
    if (!allowed.includes(value)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, not "${raw}".`);
    return value;
  };
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

function databaseUrl(raw: string, name: string): DatabaseConfig {
  if (raw === 'memory:') return { kind: 'memory' };
  if (raw.startsWith('sqlite:') && raw.length > 'sqlite:'.length) return { kind: 'sqlite', path: raw.slice('sqlite:'.length) };
  if (/^postgres(ql)?:\/\/./.test(raw)) return { kind: 'postgres', url: raw };
  // The value may hold a password: name the accepted forms, never echo it.
  throw new ConfigError(`${name} must be sqlite:<path>, postgres://... (or postgresql://...) or memory:.`);
}
