import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settings } from '../src/config.js';
import {
  configurationTableEnd,
  configurationTableStart,
  renderConfigurationTable,
  renderEnvExample,
} from '../src/config-docs.js';

const root = new URL('../../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');
const names = Object.keys(settings);

describe('configuration documents (regenerate both with `pnpm env:example`)', () => {
  it('.env.example lists every variable with its default, as generated from the settings table', () => {
    const example = read('.env.example');
    for (const name of names) {
      const setting = settings[name as keyof typeof settings];
      expect(example).toContain(setting.default === undefined ? `# ${name}=\n` : `\n${name}=${setting.default}\n`);
    }
    expect(example, '.env.example is out of date: run `pnpm env:example`').toBe(renderEnvExample());
  });

  it('the configuration table of docs/configuration.md has a row for every variable, as generated', () => {
    const readme = read('docs/configuration.md');
    const start = readme.indexOf(configurationTableStart);
    const end = readme.indexOf(configurationTableEnd);
    expect(start, 'docs/configuration.md has no generated configuration table').toBeGreaterThanOrEqual(0);
    const table = readme.slice(start, end + configurationTableEnd.length);
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows.map((row) => /^\| `(\w+)`/.exec(row)?.[1])).toEqual(names);
    expect(table, 'the configuration table of docs/configuration.md is out of date: run `pnpm env:example`').toBe(
      renderConfigurationTable(),
    );
  });
});
