import { describe, expect, it } from 'vitest';
import { loadConfig, settings } from '../src/config.js';
import { runServerToExit } from './support/server-process.js';
import { configProblems } from './support/config-problems.js';

describe('loadConfig', () => {
  it('gives every setting its default', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      production: false,
      port: 3000,
      host: '127.0.0.1',
      database: { kind: 'sqlite', path: './data/meals.db' },
      logLevel: 'info',
      metricsEnabled: true,
      metricsPort: undefined,
    });
  });

  it('serves imported menus at 11:00 in Berlin unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ serviceStart: '11:00', timeZone: 'Europe/Berlin' });
    expect(loadConfig({ SERVICE_START: '11:30', TZ_NAME: 'Europe/Vienna' })).toMatchObject({
      serviceStart: '11:30',
      timeZone: 'Europe/Vienna',
    });
  });

  it('derives the cursor key from JWT_SECRET when CURSOR_SECRET is unset, so instances sharing the secret share it', () => {
    const secret = 'a'.repeat(40);
    const one = loadConfig({ JWT_SECRET: secret }).cursorSecret;
    expect(one).toBeDefined();
    expect(one).not.toContain(secret);
    expect(loadConfig({ JWT_SECRET: secret }).cursorSecret).toBe(one);
    expect(loadConfig({ JWT_SECRET: 'b'.repeat(40) }).cursorSecret).not.toBe(one);
    expect(loadConfig({ JWT_SECRET: secret, CURSOR_SECRET: 'c'.repeat(40) }).cursorSecret).toBe('c'.repeat(40));
  });

  it('ranks with one pseudo-vote per star and z = 1.65 unless told otherwise', () => {
    expect(loadConfig({}).rankingSettings).toEqual({ prior: [1, 1, 1, 1, 1], z: 1.65 });
    expect(loadConfig({ RANKING_PRIOR: '2, 1,0.5,1,2', RANKING_Z: '0' }).rankingSettings).toEqual({
      prior: [2, 1, 0.5, 1, 2],
      z: 0,
    });
    expect(loadConfig({ RANKING_Z: '2.58' }).rankingSettings.z).toBe(2.58);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', METRICS_ENABLED: '', METRICS_PORT: '' })).toMatchObject({
      port: 3000,
      metricsEnabled: true,
      metricsPort: undefined,
    });
  });

  it('reads the metrics settings', () => {
    expect(loadConfig({ METRICS_ENABLED: 'false', METRICS_PORT: '9464' })).toMatchObject({
      metricsEnabled: false,
      metricsPort: 9464,
    });
  });

  it.each([
    ['PORT', 'abc', 'PORT must be an integer from 0 to 65535, not "abc".'],
    ['PORT', '70000', 'PORT must be an integer from 0 to 65535, not "70000".'],
    ['HOST', '   ', 'HOST must not be blank.'],
    [
      'DATABASE_URL',
      'postgres:x',
      'DATABASE_URL must be sqlite:<path>, postgres://... (or postgresql://...) or memory:.',
    ],
    ['SQLITE_SYNCHRONOUS', 'off', 'SQLITE_SYNCHRONOUS must be one of normal, full, not "off".'],
    ['JWT_SECRET', 'short', 'JWT_SECRET must have at least 32 bytes (it has 5).'],
    ['JWT_CLOCK_TOLERANCE_S', '31', 'JWT_CLOCK_TOLERANCE_S must be an integer from 0 to 30, not "31".'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "loud".'],
    ['METRICS_ENABLED', 'yes', 'METRICS_ENABLED must be true or false, not "yes".'],
    ['METRICS_PORT', '-1', 'METRICS_PORT must be an integer from 0 to 65535, not "-1".'],
    ['SERVICE_START', '24:00', 'SERVICE_START must be a time of day HH:MM (00:00 to 23:59), not "24:00".'],
    ['SERVICE_START', '11', 'SERVICE_START must be a time of day HH:MM (00:00 to 23:59), not "11".'],
    ['TZ_NAME', 'Europe/Aachen', 'TZ_NAME must be an IANA time zone such as Europe/Berlin, not "Europe/Aachen".'],
    ...['1,1,1,1', '1,1,1,1,1,1', '1,1,0,1,1', '1,1,-1,1,1', '1,1,x,1,1', '1,1,1e3,1,1', '1;1;1;1;1'].map((value) => [
      'RANKING_PRIOR',
      value,
      `RANKING_PRIOR must be five numbers above 0 separated by commas (votes for 1 to 5 stars), such as 1,1,1,1,1, not "${value}".`,
    ]),
    ...['-1', '10.5', 'high', '1,65', '.5'].map((value) => [
      'RANKING_Z',
      value,
      `RANKING_Z must be a number from 0 to 10, such as 1.65, not "${value}".`,
    ]),
  ])('refuses %s=%s, naming the variable and what it allows', (name, value, message) => {
    expect(name in settings).toBe(true);
    expect(configProblems({ [name]: value })).toBe(message);
  });

  it('names every invalid variable at once, and the rules between variables', () => {
    expect(configProblems({ PORT: 'x', LOG_LEVEL: 'loud' }).split('\n')).toEqual([
      'PORT must be an integer from 0 to 65535, not "x".',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "loud".',
    ]);
    expect(configProblems({ PORT: '8080', METRICS_PORT: '8080' })).toMatch(/^METRICS_PORT must differ from PORT/);
    expect(configProblems({ NODE_ENV: 'production' })).toMatch(/^JWT_SECRET is required when NODE_ENV=production/);
  });
});

describe('the Web Push settings', () => {
  const keys = {
    WEB_PUSH_PUBLIC_KEY: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url'),
    WEB_PUSH_PRIVATE_KEY: Buffer.alloc(32, 2).toString('base64url'),
    WEB_PUSH_SUBJECT: 'mailto:ops@example.edu',
  };

  it('turn push on with all three, and leave it off with none', () => {
    expect(loadConfig({}).webPush).toBeUndefined();
    expect(loadConfig(keys).webPush).toEqual({
      publicKey: keys.WEB_PUSH_PUBLIC_KEY,
      privateKey: keys.WEB_PUSH_PRIVATE_KEY,
      subject: 'mailto:ops@example.edu',
    });
    expect(loadConfig({ ...keys, WEB_PUSH_SUBJECT: 'https://meals.example.edu/contact' }).webPush?.subject).toBe(
      'https://meals.example.edu/contact',
    );
    expect(loadConfig({}).pushDigestTime).toBe('10:30');
    expect(loadConfig({ PUSH_DIGEST_TIME: '11:15' }).pushDigestTime).toBe('11:15');
  });

  it('refuse a half-configured push in one line naming what is missing, and keys or a subject of the wrong shape', () => {
    expect(() => loadConfig({ WEB_PUSH_PUBLIC_KEY: keys.WEB_PUSH_PUBLIC_KEY })).toThrow(
      'Web Push needs all three of WEB_PUSH_PUBLIC_KEY, WEB_PUSH_PRIVATE_KEY and WEB_PUSH_SUBJECT: WEB_PUSH_PRIVATE_KEY and WEB_PUSH_SUBJECT are missing (`pnpm push-keys` prints a key pair).',
    );
    expect(() => loadConfig({ ...keys, WEB_PUSH_SUBJECT: undefined })).toThrow('WEB_PUSH_SUBJECT is missing');
    expect(() => loadConfig({ ...keys, WEB_PUSH_PUBLIC_KEY: keys.WEB_PUSH_PRIVATE_KEY })).toThrow(
      'WEB_PUSH_PUBLIC_KEY must be a base64url VAPID key of 65 bytes',
    );
    expect(() => loadConfig({ ...keys, WEB_PUSH_PRIVATE_KEY: 'short' })).toThrow(
      'WEB_PUSH_PRIVATE_KEY must be a base64url VAPID key of 32 bytes',
    );
    expect(() => loadConfig({ ...keys, WEB_PUSH_SUBJECT: 'ops@example.edu' })).toThrow(
      'WEB_PUSH_SUBJECT must be a mailto: or https: URL',
    );
    expect(() => loadConfig({ PUSH_DIGEST_TIME: '25:00' })).toThrow('PUSH_DIGEST_TIME');
  });
});

describe('starting with an invalid configuration', () => {
  it('exits with code 1 and a message naming each variable and what it allows', async () => {
    const { code, output } = await runServerToExit({
      DATABASE_URL: 'memory:',
      METRICS_PORT: 'ninety',
      LOG_LEVEL: 'chatty',
    });
    expect(code).toBe(1);
    expect(output).toContain(
      'meals: invalid configuration: METRICS_PORT must be an integer from 0 to 65535, not "ninety".',
    );
    expect(output).toContain(
      'meals: invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "chatty".',
    );
    expect(output).not.toContain('listening');
  });
});
