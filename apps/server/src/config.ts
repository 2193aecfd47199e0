import { isLocalTime, isTimeZone } from '@meals/domain';

/** Every setting the server reads, each with its default and what it allows: the one configuration schema. */

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'memory' };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  readonly production: boolean;
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  readonly sqliteSynchronous: 'normal' | 'full';
  readonly jwtSecret: string;
  /** True when no JWT_SECRET was given and the development secret stands in. */
  readonly jwtSecretIsDevelopmentDefault: boolean;
  readonly jwtIssuer: string | undefined;
  readonly jwtAudience: string | undefined;
  readonly jwtClockToleranceMs: number;
  readonly logLevel: LogLevel;
  /** When service starts, "HH:MM": an imported menu's meals are served at this time of their day. */
  readonly serviceStart: string;
  /** The canteen's IANA time zone: the days of menus are days on its clocks. */
  readonly timeZone: string;
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
  DATABASE_URL: { description: '`sqlite:<path>` (folder created if missing) or `memory:` (lost on exit)', default: 'sqlite:./data/meals.db', parse: databaseUrl },
  SQLITE_SYNCHRONOUS: { description: '`normal`: commits survive a process crash; `full`: they also survive a power loss', default: 'normal', parse: oneOf(['normal', 'full'] as const) },
  JWT_SECRET: { description: 'HS256 secret, at least 32 bytes; required in production', default: undefined, parse: secret },
  JWT_ISSUER: { description: 'When set, tokens must carry exactly this `iss`', default: undefined, parse: nonEmpty },
  JWT_AUDIENCE: { description: 'When set, tokens must carry this `aud`', default: undefined, parse: nonEmpty },
  JWT_CLOCK_TOLERANCE_S: { description: 'Leeway for `exp` and `nbf`, in seconds (0 to 30)', default: '5', parse: integerIn(0, 30) },
  LOG_LEVEL: { description: 'pino log level', default: 'info', parse: oneOf(logLevels) },
  SERVICE_START: { description: 'Time of day (`HH:MM`) at which an imported menu day is served', default: '11:00', parse: timeOfDay },
  TZ_NAME: { description: 'IANA time zone of the canteen: days of menus and of `?date=`', default: 'Europe/Berlin', parse: timeZone },
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
    jwtSecret: givenSecret ?? developmentJwtSecret,
    jwtSecretIsDevelopmentDefault: givenSecret === undefined,
    jwtIssuer: read('JWT_ISSUER', settings.JWT_ISSUER),
    jwtAudience: read('JWT_AUDIENCE', settings.JWT_AUDIENCE),
    jwtClockToleranceMs: read('JWT_CLOCK_TOLERANCE_S', settings.JWT_CLOCK_TOLERANCE_S)! * 1000,
    logLevel: read('LOG_LEVEL', settings.LOG_LEVEL)!,
    serviceStart: read('SERVICE_START', settings.SERVICE_START)!,
    timeZone: read('TZ_NAME', settings.TZ_NAME)!,
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

function timeOfDay(raw: string, name: string): string {
  if (!isLocalTime(raw)) throw new ConfigError(`${name} must be a time of day HH:MM (00:00 to 23:59), not "${raw}".`);
  return raw;
}

function timeZone(raw: string, name: string): string {
  if (!isTimeZone(raw)) throw new ConfigError(`${name} must be an IANA time zone such as Europe/Berlin, not "${raw}".`);
  return raw;
}

function databaseUrl(raw: string, name: string): DatabaseConfig {
  if (raw === 'memory:') return { kind: 'memory' };
  if (raw.startsWith('sqlite:') && raw.length > 'sqlite:'.length) return { kind: 'sqlite', path: raw.slice('sqlite:'.length) };
  throw new ConfigError(`${name} must be sqlite:<path> or memory:, not "${raw}".`);
}
