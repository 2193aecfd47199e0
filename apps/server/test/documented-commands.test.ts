import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHmacTokenVerifier } from '@canteen-meals/adapters-http';
import { afterAll, describe, expect, it } from 'vitest';
import { syncRunTimeoutMs } from './support/server-process.js';

// Every `pnpm <script> …` the docs show must be a script of the root package.json that no pnpm built-in shadows
// (`pnpm token alice` ran pnpm's own `token` command), and every concrete command line of a CLI must work as written.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const scripts = packageJson.scripts;

/**
 * pnpm 10's own commands (`pnpm help -a`, plus those it hands to npm): a script with one of these names is not run
 * by `pnpm <name>`. `test` and `start` are built-ins that do run the script of that name.
 */
const pnpmBuiltins = new Set(
  (
    'add access adduser approve-builds audit bin bugs c cache cat-file cat-index config create dedupe deploy deprecate ' +
    'dist-tag dlx docs doctor edit env exec fetch find-hash help hook i ignored-builds import info init install ' +
    'install-test it licenses link list ln login logout ls org outdated owner pack patch patch-commit patch-remove ' +
    'ping prefix profile prune publish rb rebuild remove repo restart rm root run search self-update server ' +
    'set-script setup star stars stop store team token unlink unpublish unstar up update version view whoami why ' +
    'x xmas'
  ).split(' '),
);
const builtinsThatRunTheScript = new Set(['test', 'start']);

const documents = [
  'README.md',
  ...['apps', 'packages'].flatMap((dir) =>
    readdirSync(join(root, dir))
      .map((name) => `${dir}/${name}/README.md`)
      .filter((path) => existsSync(join(root, path))),
  ),
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  'bench/README.md',
].filter((path) => existsSync(join(root, path)));

/** The code of a Markdown text: fenced blocks and inline code spans, where commands are written. */
function codeOf(markdown: string): string[] {
  const fenced = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((match) => match[1]!);
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  const inline = [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  return [...fenced.flatMap((block) => block.split('\n')), ...inline];
}

interface PnpmCommand {
  readonly document: string;
  readonly line: string;
  readonly script: string;
  /** The words after the script name, up to a comment, a pipe or the end of a `$(…)`. */
  readonly args: string[];
  /** Variables set before the command on the same line (`DATABASE_URL=… pnpm …`). */
  readonly env: Record<string, string>;
}

function pnpmCommandsIn(document: string): PnpmCommand[] {
  const commands: PnpmCommand[] = [];
  for (const line of codeOf(readFileSync(join(root, document), 'utf8'))) {
    for (const match of line.matchAll(
      /(?:^|[\s(;&|])((?:[A-Z_]+=\S+\s+)*)pnpm((?:\s+-[a-z]+)*)\s+([a-z][\w:.-]*)([^#)&|;\n]*)/g,
    )) {
      const env = Object.fromEntries(
        match[1]!
          .trim()
          .split(/\s+/)
          .filter((word) => word.includes('='))
          .map((word) => word.split('=', 2) as [string, string]),
      );
      const args = match[4]!
        .trim()
        .split(/\s+/)
        .filter((word) => word !== '' && word !== '\\');
      commands.push({ document, line: line.trim(), script: match[3]!, args, env });
    }
  }
  return commands;
}

const documented = documents.flatMap(pnpmCommandsIn);
/** The built-ins the docs use for themselves: installing, packing (the pack-and-run test's account), publishing. */
const builtinsUsedForThemselves = new Set(['install', 'pack', 'publish']);
const scriptCommands = documented.filter((command) => !builtinsUsedForThemselves.has(command.script));

describe('documented pnpm commands', () => {
  it('finds the commands of every CLI in the README or docs/', () => {
    const inReadme = new Set(
      scriptCommands.filter((c) => c.document === 'README.md' || c.document.startsWith('docs/')).map((c) => c.script),
    );
    for (const script of ['issue-token', 'meals:import', 'db:backup', 'env:example'])
      expect(inReadme).toContain(script);
  });

  it.each(
    scriptCommands.map((command) => [`${command.document}: ${command.line}`, command] as const),
  )('%s names a script of the root package.json', (_, command) => {
    expect(Object.keys(scripts)).toContain(command.script);
  });

  it('has no root script that a pnpm built-in shadows', () => {
    const shadowed = Object.keys(scripts).filter(
      (name) => pnpmBuiltins.has(name) && !builtinsThatRunTheScript.has(name),
    );
    expect(shadowed).toEqual([]);
  });
});

// The CLIs themselves, run as the docs write them: the script's `node <entry>` with the documented arguments and
// variables, in a scratch folder holding the examples (and `feed.xml`, the README's name for any feed).
describe('documented CLI command lines, run as written', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'meals-documented-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  cpSync(join(root, 'examples'), join(scratch, 'examples'), { recursive: true });
  cpSync(join(root, 'examples', 'openmensa-feed.xml'), join(scratch, 'feed.xml'));
  mkdirSync(join(scratch, 'backups'));
  const secret = 'documented-commands-secret-of-32-bytes!';
  const baseEnv = { PATH: process.env.PATH ?? '', JWT_SECRET: secret, DATABASE_URL: 'sqlite:./data/meals.db' };

  /** The entry point a script runs after building: `tsc -b && node <entry>`. */
  const entryOf = (script: string) => {
    const entry = /node (\S+\.js)/.exec(scripts[script] ?? '')?.[1];
    if (entry === undefined) throw new Error(`script ${script} runs no node entry point`);
    return join(root, entry);
  };
  const run = (command: PnpmCommand) =>
    spawnSync(process.execPath, [entryOf(command.script), ...command.args], {
      cwd: scratch,
      env: { ...baseEnv, ...command.env, INIT_CWD: scratch },
      encoding: 'utf8',
      timeout: syncRunTimeoutMs,
    });

  // Lines with placeholders (`<sub>`, `[--scope …]`) are usage, and a bare name in prose names the command: neither is
  // a command line to run.
  const concrete = (script: string) =>
    scriptCommands.filter(
      (c) => c.script === script && c.args.length > 0 && !c.args.some((word) => /[<[…]/.test(word)),
    );
  // The README and the pages of docs/ it leads to: where the commands are documented since the README was split.
  const readmeForms = (script: string) =>
    concrete(script).filter((c) => c.document === 'README.md' || c.document.startsWith('docs/'));

  it.each(readmeForms('issue-token').map((c) => [c.line, c] as const))('issue-token: %s', (_, command) => {
    const result = run(command);
    expect(result.stderr).not.toMatch(/usage|error/i);
    expect(result.status).toBe(0);
    const principal = createHmacTokenVerifier({ secret })(result.stdout.trim());
    expect(principal.userId).toBe(command.args[0]);
  });

  it.each(readmeForms('meals:import').map((c) => [c.line, c] as const))('meals:import: %s', (_, command) => {
    const result = run(command);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/usage: pnpm meals:import|added \d+|upserted \d+/);
  });

  it.each(
    readmeForms('db:backup').map((c) => [c.line, c] as const),
  )('db:backup (after the imports): %s', (_, command) => {
    const result = run(command);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('integrity ok');
  });

  it('finds a concrete command line of issue-token, meals:import and db:backup in the README or docs/', () => {
    for (const script of ['issue-token', 'meals:import', 'db:backup'])
      expect(readmeForms(script).length).toBeGreaterThan(0);
  });

  it('env:example, as documented (no arguments), rewrites .env.example and leaves an up-to-date docs/configuration.md as it is', () => {
    expect(scriptCommands.filter((c) => c.script === 'env:example').every((c) => c.args.length === 0)).toBe(true);
    // It writes next to its own build, so it runs from a copy of the build (its packages linked) beside a README copy.
    const copy = join(scratch, 'repository');
    const entry = entryOf('env:example');
    cpSync(join(root, 'apps/server/dist'), join(copy, 'apps/server/dist'), { recursive: true });
    symlinkSync(join(root, 'apps/server/node_modules'), join(copy, 'apps/server/node_modules'));
    mkdirSync(join(copy, 'docs'), { recursive: true });
    cpSync(join(root, 'docs/configuration.md'), join(copy, 'docs/configuration.md'));
    const result = spawnSync(process.execPath, [join(copy, relative(root, entry))], {
      cwd: copy,
      env: baseEnv,
      encoding: 'utf8',
      timeout: syncRunTimeoutMs,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(readFileSync(join(copy, '.env.example'), 'utf8')).toBe(readFileSync(join(root, '.env.example'), 'utf8'));
    expect(readFileSync(join(copy, 'docs/configuration.md'), 'utf8')).toBe(
      readFileSync(join(root, 'docs/configuration.md'), 'utf8'),
    );
  });

  it.each([
    ['issue-token', ['--help']],
    ['meals:import', ['--help']],
  ])('%s %s prints the usage it documents, naming the script as pnpm runs it', (script, args) => {
    const result = spawnSync(process.execPath, [entryOf(script), ...args], {
      cwd: scratch,
      env: baseEnv,
      encoding: 'utf8',
      timeout: syncRunTimeoutMs,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`usage: pnpm ${script} `);
  });
});
