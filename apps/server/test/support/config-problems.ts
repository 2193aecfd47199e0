import { ConfigError, loadConfig } from '../../src/config.js';

/** The message a refused configuration gives; fails when the configuration is accepted. */
export function configProblems(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('the configuration was accepted');
}
