import { describe, expect, it } from 'vitest';
import { buildServer } from '../src/composition-root.js';
import { ConfigError, loadConfig } from '../src/config.js';

describe('DOCS_ENABLED', () => {
  it('is on by default and accepts true or false', () => {
    expect(loadConfig({}).docsEnabled).toBe(true);
    expect(loadConfig({ DOCS_ENABLED: 'false' }).docsEnabled).toBe(false);
    expect(loadConfig({ DOCS_ENABLED: 'true' }).docsEnabled).toBe(true);
  });

  it('refuses anything else, naming the variable', () => {
    expect(() => loadConfig({ DOCS_ENABLED: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ DOCS_ENABLED: 'yes' })).toThrow(/DOCS_ENABLED must be true or false/);
  });

  it.each([
    ['true', 200],
    ['false', 404],
  ])('with DOCS_ENABLED=%s the server answers /openapi.json with %i', async (value, status) => {
    const { app } = await buildServer(
      loadConfig({ DATABASE_URL: 'memory:', LOG_LEVEL: 'silent', DOCS_ENABLED: value }),
    );
    try {
      expect((await app.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(status);
    } finally {
      await app.close();
    }
  });
});
