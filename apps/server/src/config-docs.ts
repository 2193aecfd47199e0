import { settings, type Setting } from './config.js';

/** The configuration documents, generated from the settings table so that they cannot drift from it. */

const entries = () => Object.entries(settings) as [string, Setting<unknown>][];

export const configurationTableStart =
  '<!-- configuration-table: generated from apps/server/src/config.ts by `pnpm env:example` -->';
export const configurationTableEnd = '<!-- /configuration-table -->';

export function renderEnvExample(): string {
  const lines = [
    '# Every setting of the meals server, with its default.',
    '# Generated from apps/server/src/config.ts by `pnpm env:example`; a test fails when this file is out of date.',
    '# The server reads its environment and `.env` in its working directory (a variable of the environment wins): copy this file to .env.',
    '# A commented-out variable is unset by default.',
  ];
  for (const [name, setting] of entries()) {
    lines.push('', `# ${setting.description}`);
    lines.push(setting.default === undefined ? `# ${name}=` : `${name}=${setting.default}`);
  }
  return `${lines.join('\n')}\n`;
}

export function renderConfigurationTable(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const rows = entries().map(
    ([name, setting]) =>
      `| \`${name}\` | ${setting.default === undefined ? '(unset)' : `\`${cell(setting.default)}\``} | ${cell(setting.description)} |`,
  );
  return [
    configurationTableStart,
    '| Variable | Default | Meaning |',
    '|---|---|---|',
    ...rows,
    configurationTableEnd,
  ].join('\n');
}

/**
 * The page (docs/configuration.md) with its configuration table replaced by the generated one; throws when the markers
 * are missing.
 */
export function withConfigurationTable(readme: string): string {
  const start = readme.indexOf(configurationTableStart);
  const end = readme.indexOf(configurationTableEnd);
  if (start < 0 || end < start) {
    throw new Error(`docs/configuration.md has no "${configurationTableStart}" ... "${configurationTableEnd}" block`);
  }
  return readme.slice(0, start) + renderConfigurationTable() + readme.slice(end + configurationTableEnd.length);
}
