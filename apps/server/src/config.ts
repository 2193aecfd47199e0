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
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

interface Setting<T> {
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
  NODE_ENV: { description: '`production` refuses a missing or short secret and never seeds demo data', default: 'development', parse: (raw) => raw },
  PORT: { description: 'TCP port to listen on (0 picks a free one)', default: '3000', parse: integerIn(0, 65535) },
  HOST: { description: 'Address to listen on', default: '127.0.0.1', parse: nonEmpty },
  DATABASE_URL: { description: '`sqlite:<path>` (folder created if missing), `postgres://user:password@host:port/database` (or `postgresql://`; shared by many instances) or `memory:` (lost on exit)', default: 'sqlite:./data/meals.db', parse: databaseUrl },
  SQLITE_SYNCHRONOUS: { description: '`normal`: commits survive a process crash; `full`: they also survive a power loss', default: 'normal', parse: oneOf(['normal', 'full'] as const) },
  POSTGRES_POOL_SIZE: { description: 'PostgreSQL connections per instance (1 to 100); N instances hold up to N times as many', default: '10', parse: integerIn(1, 100) },
  JWT_SECRET: { description: 'HS256 secret, at least 32 bytes; required in production', default: undefined, parse: secret },
  JWT_ISSUER: { description: 'When set, tokens must carry exactly this `iss`', default: undefined, parse: nonEmpty },
  JWT_AUDIENCE: { description: 'When set, tokens must carry this `aud`', default: undefined, parse: nonEmpty },
  JWT_CLOCK_TOLERANCE_S: { description: 'Leeway for `exp` and `nbf`, in seconds (0 to 30)', default: '5', parse: integerIn(0, 30) },
  LOG_LEVEL: { description: 'pino log level', default: 'info', parse: oneOf(logLevels) },
} satisfies Record<string, Setting<unknown>>;

export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const read = <T>(name: keyof typeof settings, setting: Setting<T>): T | undefined => {
    const raw = env[name] === '' ? undefined : (env[name] ?? setting.default);
    return raw === undefined ? undefined : setting.parse(raw, name);
  };
  const production = read('NODE_ENV', settings.NODE_ENV) === 'production';
  const givenSecret = read('JWT_SECRET', settings.JWT_SECRET);
  if (production && givenSecret === undefined) {
    throw new ConfigError(`JWT_SECRET is required when NODE_ENV=production (at least ${minSecretBytes} bytes).`);
  }
  return {
    production,
    port: read('PORT', settings.PORT)!,
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
  };
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
