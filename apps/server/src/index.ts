// What other workspace packages (the bench) use of the server: build it in process from a configuration. The
// process itself starts from main.ts.
export { buildServer, type Overrides } from './composition-root.js';
export { loadConfig, type Config } from './config.js';
