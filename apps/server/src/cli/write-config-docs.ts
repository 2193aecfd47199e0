import { readFileSync, writeFileSync } from 'node:fs';
import { renderEnvExample, withConfigurationTable } from '../config-docs.js';

/**
 * `pnpm env:example`: rewrites .env.example and the configuration table of docs/configuration.md from the settings
 * table.
 */
const root = new URL('../../../../', import.meta.url);
const envExample = new URL('.env.example', root);
const page = new URL('docs/configuration.md', root);

try {
  writeFileSync(envExample, renderEnvExample());
  writeFileSync(page, withConfigurationTable(readFileSync(page, 'utf8')));
  console.log('env:example: wrote .env.example and the configuration table of docs/configuration.md');
} catch (error) {
  console.error(`env:example: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
