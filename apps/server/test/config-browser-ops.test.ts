import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { configProblems } from './support/config-problems.js';

const productionSecret = 'production-secret-of-at-least-32-bytes!!';

describe('CORS_ORIGINS', () => {
  it('is off by default and reads a comma-separated list of exact origins', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
  });

  it.each([
    'https://app.example.com/',
    'https://app.example.com/path',
    'app.example.com',
    '*',
    'https://*.example.com',
    'ftp://files.example.com',
    'https://App.Example.com',
    'https://app.example.com:443',
    'https://app.example.com?x=1',
  ])('refuses %s: a browser never sends it as its origin', (origin) => {
    expect(configProblems({ CORS_ORIGINS: `https://ok.example.com,${origin}` })).toBe(
      `CORS_ORIGINS must list origins such as https://app.example.com (scheme and host, no path), not "${origin}".`,
    );
  });
});

describe('METRICS_TOKEN', () => {
  it('needs at least 16 characters', () => {
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(16) }).metricsToken).toBe('a'.repeat(16));
    expect(configProblems({ METRICS_TOKEN: 'a'.repeat(15) })).toBe(
      'METRICS_TOKEN must be at least 16 characters without spaces (it has 15).',
    );
  });

  it('is what production needs to serve metrics on PORT: without it or METRICS_PORT, metrics are off', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: productionSecret };
    expect(loadConfig(production)).toMatchObject({ metricsEnabled: false, metricsUnguarded: true });
    expect(loadConfig({ ...production, METRICS_TOKEN: 'scrape-token-0123456789' })).toMatchObject({
      metricsEnabled: true,
      metricsUnguarded: false,
      metricsToken: 'scrape-token-0123456789',
    });
    expect(loadConfig({ ...production, METRICS_PORT: '9464' })).toMatchObject({
      metricsEnabled: true,
      metricsUnguarded: false,
    });
    expect(loadConfig({ ...production, METRICS_ENABLED: 'false' })).toMatchObject({
      metricsEnabled: false,
      metricsUnguarded: false,
    });
    // Outside production the server listens on 127.0.0.1 by default: /metrics stays open on PORT for a first look.
    expect(loadConfig({})).toMatchObject({ metricsEnabled: true, metricsUnguarded: false, metricsToken: undefined });
  });
});
