import { readFileSync, writeFileSync } from 'node:fs';
import { renderEnvExample, withConfigurationTable } from '../config-docs.js';

/** `pnpm env:example`: rewrites .env.example and the README's configuration table from the settings table. */
const root = new URL('../../../../', import.meta.url);
const envExample = new URL('.env.example', root);
const readme = new URL('README.md', root);

try {
  writeFileSync(envExample, renderEnvExample());
  writeFileSync(readme, withConfigurationTable(readFileSync(readme, 'utf8')));
  console.log('env:example: wrote .env.example and the configuration table of README.md');
} catch (error) {
  console.error(`env:example: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
